package dev.logrouter.core.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * A {@link FileChannel} that passes every call to another one; tests override what they watch or break.
 *
 * <p>Threads: as the wrapped channel.
 */
class ForwardingFileChannel extends FileChannel {

    protected final FileChannel in;

    ForwardingFileChannel(FileChannel in) {
        this.in = in;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        return in.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        return in.read(dsts, offset, length);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        return in.write(src);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        return in.write(srcs, offset, length);
    }

    @Override
    public long position() throws IOException {
        return in.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
        in.position(newPosition);
        return this;
    }

    @Override
    public long size() throws IOException {
        return in.size();
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
        in.truncate(size);
        return this;
    }

    @Override
    public void force(boolean metaData) throws IOException {
        in.force(metaData);
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        return in.transferTo(position, count, target);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
        return in.transferFrom(src, position, count);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        return in.read(dst, position);
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        return in.write(src, position);
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
        throw new UnsupportedOperationException("the journal never maps");
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
        return in.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        return in.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
        in.close();
    }
}
