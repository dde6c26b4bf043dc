#!/usr/bin/env bash
# install-omelasticsearch.sh - add rsyslog's Elasticsearch output (omelasticsearch.so, Debian
# package rsyslog-elasticsearch) to the private rsyslog prefix of the shared peer kit.
#
# The shared kit (/work/shared/bench/install.sh) unpacks rsyslog's .deb into $RSYSLOG_ROOT
# (default /opt/peers/rsyslog-root) with `apt-get download` + `dpkg-deb -x`, because the
# Debian packages rsyslog and syslog-ng-core conflict. This does the same for
# rsyslog-elasticsearch, pinned to the version of the unpacked rsyslog (the module must match
# rsyslogd exactly), and installs its one library dependency (libcurl4) with apt.
# Idempotent: does nothing when the module is already there. Run as root.
set -euo pipefail
RSYSLOG_ROOT=${RSYSLOG_ROOT:-/opt/peers/rsyslog-root}
MODDIR=$RSYSLOG_ROOT/usr/lib/x86_64-linux-gnu/rsyslog

if [ -f "$MODDIR/omelasticsearch.so" ]; then
  echo "omelasticsearch already in $MODDIR"; exit 0
fi
[ "$(id -u)" = 0 ] || { echo "run as root" >&2; exit 1; }
[ -x "$RSYSLOG_ROOT/usr/sbin/rsyslogd" ] || {
  echo "no rsyslog in $RSYSLOG_ROOT: run /work/shared/bench/install.sh first" >&2; exit 1; }

# version of the privately unpacked rsyslog (its .deb is kept next to the prefix)
deb=$(ls "$(dirname "$RSYSLOG_ROOT")"/rsyslog_*.deb 2>/dev/null | head -1 || true)
if [ -n "$deb" ]; then
  ver=$(dpkg-deb -f "$deb" Version)
else
  ver=$("$RSYSLOG_ROOT/usr/sbin/rsyslogd" -v | sed -n '1s/^rsyslogd \([0-9.]*\).*/\1/p')
  ver=$(apt-cache madison rsyslog-elasticsearch | awk -v v="$ver" '$3 ~ "^" v {print $3; exit}')
fi
[ -n "$ver" ] || { echo "cannot tell which rsyslog version is unpacked in $RSYSLOG_ROOT" >&2; exit 1; }

dpkg-query -W -f='${Status}\n' libcurl4 2>/dev/null | grep -q 'install ok installed' || {
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libcurl4
}
tmpd=$(mktemp -d)
trap 'rm -rf "$tmpd"' EXIT
chmod 777 "$tmpd"
( cd "$tmpd" && apt-get download "rsyslog-elasticsearch=$ver" )
dpkg-deb -x "$tmpd"/rsyslog-elasticsearch_*.deb "$RSYSLOG_ROOT"
cp "$tmpd"/rsyslog-elasticsearch_*.deb "$(dirname "$RSYSLOG_ROOT")/"
if ldd "$MODDIR/omelasticsearch.so" | grep -q 'not found'; then
  echo "omelasticsearch.so has unresolved libraries:" >&2
  ldd "$MODDIR/omelasticsearch.so" | grep 'not found' >&2
  exit 1
fi
echo "installed $MODDIR/omelasticsearch.so (rsyslog-elasticsearch $ver)"
