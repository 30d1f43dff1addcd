#!/usr/bin/env bash
# Makes sure the servers the queue-mode suite starts are installed: Redis (the queue) and
# PostgreSQL (n8n's database in queue mode), both from Debian's packages. Installs only what is
# missing, non-interactively, and says so. Starts nothing: the suite starts and stops its own
# throwaway instances on free loopback ports.
set -euo pipefail

missing=()
command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1 || missing+=(redis-server)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
command -v psql >/dev/null 2>&1 || missing+=(postgresql-client)

if [ ${#missing[@]} -eq 0 ]; then
	echo "queue e2e: redis-server $(redis-server --version | sed -n 's/.* v=\([^ ]*\).*/\1/p') and PostgreSQL $(ls /usr/lib/postgresql | sort -n | tail -1) are installed"
	exit 0
fi

echo "queue e2e: installing ${missing[*]} with apt-get (Debian packages)"
if [ "$(id -u)" -ne 0 ]; then
	echo "queue e2e: not root, cannot install; run: sudo apt-get install -y ${missing[*]}" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# Another apt-get may hold the dpkg lock (a parallel install): wait for it instead of failing.
apt_get() { apt-get -o DPkg::Lock::Timeout=600 -q "$@"; }
apt_get update >/dev/null
apt_get install -y --no-install-recommends "${missing[@]}" >/dev/null
echo "queue e2e: installed ${missing[*]}"
