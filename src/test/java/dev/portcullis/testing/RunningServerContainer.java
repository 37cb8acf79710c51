package dev.portcullis.testing;

import org.jboss.arquillian.container.spi.client.container.ContainerConfiguration;
import org.jboss.arquillian.container.spi.client.container.DeployableContainer;
import org.jboss.arquillian.container.spi.client.container.DeploymentException;
import org.jboss.arquillian.container.spi.client.protocol.ProtocolDescription;
import org.jboss.arquillian.container.spi.client.protocol.metadata.ProtocolMetaData;
import org.jboss.arquillian.core.spi.LoadableExtension;
import org.jboss.shrinkwrap.api.Archive;

/**
 * Arquillian's container on every integration-test run: the run's one server, which every class that deploys the WAR
 * shares. On a full application server run ({@code portcullis.test.server} = {@code wildfly} or
 * {@code payara-server}) {@link ItEnvironment} started that server, with the WAR deployed as an operator deploys it;
 * on a Payara Micro pass the first deployment starts the pass's Payara Micro ({@link ItEnvironment#runPayaraMicro}).
 * Nothing is deployed per class, and nothing is undeployed.
 */
public class RunningServerContainer implements DeployableContainer<RunningServerContainer.Configuration> {

    /** Registers the container. */
    public static class Extension implements LoadableExtension {
        @Override
        public void register(ExtensionBuilder builder) {
            builder.service(DeployableContainer.class, RunningServerContainer.class);
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
        if (ItEnvironment.fullServer() == null) {
            try {
                ItEnvironment.runPayaraMicro();
            } catch (RuntimeException e) {
                throw new DeploymentException("The run's Payara Micro did not start", e);
            }
        } else if (ItEnvironment.fullServerFailure != null) {
            throw new DeploymentException("The server did not start", ItEnvironment.fullServerFailure);
        }
        return new ProtocolMetaData();
    }

    @Override
    public void undeploy(Archive<?> archive) {
        // the WAR stays deployed for the next class; the server stops when the run ends
    }
}
