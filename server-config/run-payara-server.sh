#!/usr/bin/env bash
# Runs target/portcullis.war on a stock Payara Server 6.2025.10 from Maven, configured by the PORTCULLIS_* variables of
# this shell:
#   PORTCULLIS_ADMIN_TOKEN=$(openssl rand -base64 32) server-config/run-payara-server.sh
# Builds the WAR if missing, unpacks Payara into target/servers/ once, creates the domain "portcullis" there once
# (hardened like pre-boot-commands.asadmin), starts it and deploys the WAR at "/": http://localhost:8080. The
# default H2 database lives under ./data. Stop it with: target/servers/payara6/bin/asadmin stop-domain portcullis
set -euo pipefail
cd "$(dirname "$0")/.."
version=6.2025.10
home=target/servers/payara6
asadmin=$home/bin/asadmin
[ -f target/portcullis.war ] || mvn -B -q package -DskipTests -Dcds.skip=true
if [ ! -d "$home" ]; then
  mvn -B -q org.apache.maven.plugins:maven-dependency-plugin:3.8.1:unpack \
    -Dartifact=fish.payara.distributions:payara:$version:zip -DoutputDirectory=target/servers
fi
fresh=false
if [ ! -d "$home/glassfish/domains/portcullis" ]; then
  "$asadmin" create-domain --nopassword portcullis
  fresh=true
fi
export PORTCULLIS_DATA_DIR=${PORTCULLIS_DATA_DIR:-$(pwd)/data}
"$asadmin" start-domain portcullis
if $fresh; then
  "$asadmin" set configs.config.server-config.network-config.protocols.protocol.http-listener-1.http.xpowered-by=false
  "$asadmin" set configs.config.server-config.network-config.protocols.protocol.http-listener-1.http.server-header=false
  # Payara's own MicroProfile Metrics (GET /metrics to anyone) and Health endpoints off: Portcullis serves /metrics
  # behind portcullis.metrics.* and /health/ready, /health/live itself (README, "Operating Portcullis"); the health
  # setting takes effect at the restart
  "$asadmin" set-metrics-configuration --enabled=false
  "$asadmin" set-microprofile-healthcheck-configuration --enabled=false
  "$asadmin" restart-domain portcullis
fi
"$asadmin" deploy --force --contextroot / --name portcullis target/portcullis.war
