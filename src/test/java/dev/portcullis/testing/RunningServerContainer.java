package dev.portcullis.testing;

import org.jboss.arquillian.container.spi.client.container.ContainerConfiguration;
import org.jboss.arquillian.container.spi.client.container.DeployableContainer;
import org.jboss.arquillian.container.spi.client.container.DeploymentException;
import org.jboss.arquillian.container.spi.client.protocol.ProtocolDescription;
import org.jboss.arquillian.container.spi.client.protocol.metadata.ProtocolMetaData;
import org.jboss.arquillian.core.spi.LoadableExtension;
import org.jboss.shrinkwrap.api.Archive;

/**
 * The Arquillian container of the runs against a full application server ({@code portcullis.test.server} =
 * {@code wildfly} or {@code payara-server}): {@link ItEnvironment} started that server once, with the WAR deployed as
 * an operator deploys it, so every test class finds it running and this container neither starts nor deploys
 * anything. Registered only in those runs; otherwise the Payara Micro connector is Arquillian's one container.
 */
public class RunningServerContainer implements DeployableContainer<RunningServerContainer.Configuration> {

    /** Registers the container when the run targets a full server. */
    public static class Extension implements LoadableExtension {
        @Override
        public void register(ExtensionBuilder builder) {
            if (ItEnvironment.fullServer() != null) {
                builder.service(DeployableContainer.class, RunningServerContainer.class);
            }
        }
    }

    /** Nothing to configure: the server's address is {@code portcullis.test.base-url}. */
    public static class Configuration implements ContainerConfiguration {
        @Override
        public void validate() {
        }
    }

    @Override
    public Class<Configuration> getConfigurationClass() {
        return Configuration.class;
    }

    @Override
    public ProtocolDescription getDefaultProtocol() {
        return ProtocolDescription.DEFAULT;
    }

    @Override
    public ProtocolMetaData deploy(Archive<?> archive) throws DeploymentException {
        if (ItEnvironment.fullServerFailure != null) {
            throw new DeploymentException("The server did not start", ItEnvironment.fullServerFailure);
        }
        return new ProtocolMetaData();
    }

    @Override
    public void undeploy(Archive<?> archive) {
        // the WAR stays deployed for the next class; the server stops when the run ends
    }
}
