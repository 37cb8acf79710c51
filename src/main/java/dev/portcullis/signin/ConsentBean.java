package dev.portcullis.signin;

import dev.portcullis.account.User;
import dev.portcullis.account.UserLookupService;
import dev.portcullis.authorize.AuthorizationRequest;
import dev.portcullis.client.Scopes;
import dev.portcullis.session.SsoSession;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Backing bean of {@code /consent.xhtml}: the client's name and the requested scopes in plain words, Allow / Deny.
 * Needs a live SSO session that satisfies the request's prompt=login and max_age; without one the browser goes back
 * through the authorization endpoint (to sign in).
 */
@Named("consentBean")
@RequestScoped
public class ConsentBean extends AuthorizationPage {

    @Inject
    UserLookupService users;

    private SsoSession session;
    private boolean sessionLooked;

    @Override
    protected String formId() {
        return "consent";
    }

    @Override
    protected void onLoad(AuthorizationRequest r) {
        if (session() == null || !flow.consentMayFollow(r, session())) {
            redirect(issuer.endpoint("/oauth/authorize") + "?" + r.query(), 302);
        }
    }

    public String allow() {
        return answer(true);
    }

    public String deny() {
        return answer(false);
    }

    private String answer(boolean allow) {
        AuthorizationRequest r = resolve(303);
        if (r == null || !csrfValid()) {
            return null;
        }
        SsoSession s = session();
        if (s == null) {
            redirect(issuer.endpoint("/oauth/authorize") + "?" + r.query(), 303);
            return null;
        }
        send(flow.afterConsent(r, s, allow, ip()), 303);
        return null;
    }

    private SsoSession session() {
        if (!sessionLooked) {
            sessionLooked = true;
            session = liveSession().orElse(null);
        }
        return session;
    }

    /**
     * The requested scopes as plain-language descriptions, in catalogue order (a registered API's scope by its
     * name), then the claims the {@code claims} parameter asks for beyond them.
     */
    public List<String> getScopeDescriptions() {
        AuthorizationRequest r = getRequest();
        if (r == null) {
            return List.of();
        }
        List<String> lines = Scopes.parse(r.scope()).stream()
                .map(s -> getMsg().containsKey("scope." + s) ? getMsg().get("scope." + s) : s)
                .collect(Collectors.toCollection(ArrayList::new));
        Set<String> beyond = Scopes.claimsBeyond(r.claims().names(), r.scopes());
        if (!beyond.isEmpty()) {
            // claims the client asks for one by one (OIDC Core 5.5), by their names
            lines.add(getMsg().format("consent.claims", String.join(", ", beyond)));
        }
        return lines;
    }

    /** Who is signed in, so the user can tell whose data is shared. */
    public String getUserDisplayName() {
        SsoSession s = session();
        if (s == null) {
            return "";
        }
        Optional<User> u = users.findById(s.userId());
        return u.map(x -> x.name() != null ? x.name() + " (" + x.username() + ")" : x.username()).orElse("");
    }
}
