#!/usr/bin/env bash
# Runs target/portcullis.war on a stock WildFly 39 from Maven, configured by the PORTCULLIS_* variables of this shell:
#   PORTCULLIS_ADMIN_TOKEN=$(openssl rand -base64 32) server-config/run-wildfly.sh
# Builds the WAR if missing, unpacks WildFly into target/servers/ once, and keeps the server directory (with the
# default H2 database under ./data) in target/wildfly-run/ between runs. http://localhost:8080, Ctrl-C stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
version=39.0.1.Final
home=target/servers/wildfly-$version
base=target/wildfly-run
[ -f target/portcullis.war ] || mvn -B -q package -DskipTests -Dcds.skip=true
if [ ! -d "$home" ]; then
  mvn -B -q org.apache.maven.plugins:maven-dependency-plugin:3.8.1:unpack \
    -Dartifact=org.wildfly:wildfly-dist:$version:zip -DoutputDirectory=target/servers
fi
if [ ! -d "$base" ]; then
  cp -r "$home/standalone" "$base"
  # the one change a WAR at "/" needs: the stock welcome-content location at "/" goes
  sed -i 's|<location name="/" handler="welcome-content"/>||' "$base/configuration/standalone.xml"
  # Undertow cuts a body over its max-post-size (10 MB) without an answer; above 16 MiB Portcullis answers 413 itself
  sed -i 's|<http-listener name="default" |&max-post-size="33554432" |' "$base/configuration/standalone.xml"
fi
cp target/portcullis.war "$base/deployments/portcullis.war"
exec "$home/bin/standalone.sh" -Djboss.server.base.dir="$(pwd)/$base" "$@"
