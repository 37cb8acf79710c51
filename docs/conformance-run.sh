#!/usr/bin/env bash
# Runs the OpenID Foundation conformance suite's plans offline against this project's WAR, as docs/conformance.md
# records them: ../shared/oidf/run.sh (see its README) copied to a temporary directory and adjusted for Portcullis's
# standard claims and the Form Post plan.
#
#   docs/conformance-run.sh [PLAN...]   PLAN: basic config rp-logout backchannel frontchannel formpost (default: all six)
#
# Needs: what ../shared/oidf/README.md lists (a git dir of openid-certification/conformance-suite in MIRROR, a JDK
# 21+, nginx, python3-httpx, python3-pyparsing, Maven Central reachable for the first build) and target/portcullis.war
# (mvn -B -q package -DskipTests). Environment: OIDF (default ../shared/oidf next to the project), plus everything
# run.sh reads (MIRROR, REF, W, KEEP, REBUILD …). Results: $W/results/<plan>/summary.md (W defaults to /tmp/oidf).
set -euo pipefail
PROJECT=$(cd "$(dirname "$0")/.." && pwd)
OIDF=$(cd "${OIDF:-$PROJECT/../shared/oidf}" && pwd)
[ -f "$OIDF/run.sh" ] || { echo "no run.sh in $OIDF: set OIDF to the shared oidf directory" >&2; exit 2; }
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
cp -r "$OIDF"/. "$TMP"/

# Each adjustment must apply exactly; a run.sh that changed underneath stops here instead of running unadjusted.
python3 - "$TMP/run.sh" <<'PY'
import sys
path = sys.argv[1]
s = open(path).read()
def sub(old, new):
    global s
    if s.count(old) != 1:
        sys.exit(f"conformance-run.sh: run.sh no longer contains exactly one {old!r}")
    s = s.replace(old, new)
# Clients may ask for every standard scope (oidcc-scope-address, -phone, -all).
sub('\\"scopes\\":\\"openid profile email\\"', '\\"scopes\\":\\"openid profile email address phone\\"')
# A 4xx from the admin API shows its JSON error instead of curl's bare exit code.
sub('curl -kfsS -X POST $OP/admin/clients', 'curl -ksS --fail-with-body -X POST $OP/admin/clients')
# The test user holds the standard claims (OIDC Core 5.1) the scope modules look for.
sub('\\"name\\":\\"Conformance User\\"}',
    '\\"name\\":\\"Conformance User\\",\\"given_name\\":\\"Conformance\\",\\"family_name\\":\\"User\\",'
    '\\"middle_name\\":\\"Q\\",\\"nickname\\":\\"conf\\",\\"picture\\":\\"https://example.com/conf.png\\",'
    '\\"website\\":\\"https://example.com/\\",\\"gender\\":\\"other\\",\\"birthdate\\":\\"1990-01-01\\",'
    '\\"zoneinfo\\":\\"Europe/Berlin\\",\\"locale\\":\\"de-DE\\",\\"phone_number\\":\\"+49301234567\\",'
    '\\"address\\":{\\"street_address\\":\\"Hauptstr. 1\\",\\"locality\\":\\"Berlin\\",\\"postal_code\\":\\"10115\\",'
    '\\"country\\":\\"DE\\"}}')
# The Form Post OP plan (response_mode=form_post).
sub('  [frontchannel]="oidcc-frontchannel-rp-initiated-logout-certification-test-plan'
    '[response_type=code][client_registration=static_client]"\n',
    '  [frontchannel]="oidcc-frontchannel-rp-initiated-logout-certification-test-plan'
    '[response_type=code][client_registration=static_client]"\n'
    '  [formpost]="oidcc-formpost-basic-certification-test-plan[server_metadata=discovery][client_registration=static_client]"\n')
open(path, "w").write(s)
PY

# The back-channel plan's receiver is the suite on loopback, which Portcullis's outbound policy refuses by default.
export PORTCULLIS_OUTBOUND_ALLOWED_NETWORKS=${PORTCULLIS_OUTBOUND_ALLOWED_NETWORKS:-127.0.0.1/32}
export WAR=${WAR:-$PROJECT/target/portcullis.war}
[ $# -eq 0 ] && set -- basic config rp-logout backchannel frontchannel formpost
cd "$PROJECT"
"$TMP/run.sh" "$@"
