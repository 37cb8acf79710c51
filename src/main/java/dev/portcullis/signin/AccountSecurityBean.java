package dev.portcullis.signin;

import dev.portcullis.config.PortcullisConfig;
import dev.portcullis.mfa.Passkeys;
import dev.portcullis.mfa.SecondFactors;
import dev.portcullis.mfa.Totp;
import dev.portcullis.protocol.ClientAddress;
import dev.portcullis.session.SsoSessions;
import jakarta.enterprise.context.RequestScoped;
import jakarta.faces.context.FacesContext;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * Backing bean of {@code /account/security.xhtml}: the signed-in user ({@link SignedInUser}) sets up an
 * authenticator app (QR code, first code, recovery codes shown once) or removes it with a current code, and
 * registers, lists and deletes passkeys. What the page shows is decided from the database on GET and POST alike, so
 * the stateless view decodes the form it rendered.
 */
@Named("securityBean")
@RequestScoped
public class AccountSecurityBean {

    @Inject
    SignedInUser signedIn;

    @Inject
    SecondFactors factors;

    @Inject
    ClientAddress clientAddress;

    @Inject
    HttpServletRequest request;

    @Inject
    PortcullisConfig config;

    @Inject
    SsoSessions sessions;

    @Inject
    Passkeys passkeys;

    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
            .withZone(ZoneOffset.UTC);

    private String code;
    private String passkeyName;
    private List<Passkeys.Passkey> passkeyList;
    private Passkeys.Ceremony registration;
    private String totpSecret;
    private Boolean hasTotp;
    private List<String> recoveryCodes;
    private String messageKey;

    /** Confirms the new authenticator with its first code; the recovery codes are shown once. */
    public String confirm() {
        if (!signedIn.csrfValid()) {
            return refused();
        }
        Optional<List<String>> codes = factors.confirmTotp(signedIn.getUser(), takeCode(), clientAddress.of(request));
        if (codes.isEmpty()) {
            messageKey = "factor.invalid";
        } else {
            sessions.markFactorEnrolled(signedIn.getSession());
            recoveryCodes = codes.get();
            hasTotp = true;
        }
        return null;
    }

    /** Removes the authenticator and the recovery codes; a current code (or a recovery code) proves the owner asks. */
    public String remove() {
        if (!signedIn.csrfValid()) {
            return refused();
        }
        SecondFactors.Outcome outcome = factors.verify(signedIn.getUser(), takeCode(), OwnPage.ACCOUNT.clientId(),
                clientAddress.of(request));
        switch (outcome) {
            case ACCEPTED -> {
                factors.removeAll(signedIn.getUserId());
                hasTotp = false;
                messageKey = "security.removed";
            }
            case WAIT -> messageKey = "login.wait";
            case LOCKED -> messageKey = "login.locked";
            default -> messageKey = "factor.invalid";
        }
        return null;
    }

    /**
     * Registers a passkey from the browser's answer (field {@code passkey}, written by /js/passkeys.js) to the
     * challenge this page gave this session. A refused one (malformed, replayed, foreign) answers 400.
     */
    public String registerPasskey() {
        if (!signedIn.csrfValid()) {
            return refused();
        }
        String name = passkeyName;
        passkeyName = null;
        if (passkeys.register(signedIn.getUser(), name, request.getParameter("passkey"),
                signedIn.getSession().sessionHash(), clientAddress.of(request))) {
            sessions.markFactorEnrolled(signedIn.getSession());
            signedIn.redirect("/account/security.xhtml?added=passkey");
        } else {
            messageKey = "passkey.invalid";
            signedIn.status(400);
        }
        return null;
    }

    /**
     * Deletes the passkey named by the row's field {@code passkey-id}, from a session that gave two factors only
     * (as removing the app needs a current code): the password alone must not strip a user's factors.
     */
    public String removePasskey() {
        if (!signedIn.csrfValid()) {
            return refused();
        }
        if (!signedIn.getSession().isMultiFactor()) {
            messageKey = "passkey.removeNeedsFactor";
            signedIn.status(403);
            return null;
        }
        passkeys.remove(signedIn.getUserId(), signedIn.parameter("passkey-id", 64), clientAddress.of(request));
        signedIn.redirect("/account/security.xhtml?removed=passkey");
        return null;
    }

    /** The user's passkeys, oldest first. */
    public List<Passkeys.Passkey> getPasskeys() {
        if (passkeyList == null) {
            passkeyList = passkeys.list(signedIn.getUserId());
        }
        return passkeyList;
    }

    public String when(Instant at) {
        return at == null ? "—" : WHEN.format(at);
    }

    /** Whether another passkey may be registered. */
    public boolean isMayAddPasskey() {
        return getPasskeys().size() < Passkeys.MAX_PER_USER;
    }

    /** The registration ceremony of this page view: a fresh challenge bound to this session. */
    public Passkeys.Ceremony getRegistration() {
        if (registration == null) {
            registration = passkeys.begin(Passkeys.Purpose.REGISTER, signedIn.getSession().sessionHash(),
                    signedIn.getUserId());
        }
        return registration;
    }

    /** The WebAuthn user handle: the user id (the OIDC sub, random), base64url. */
    public String getUserHandle() {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(
                signedIn.getUserId().getBytes(StandardCharsets.UTF_8));
    }

    /** A message after a redirect (post/redirect/get): the passkey was added or removed. */
    public String getDoneKey() {
        if ("passkey".equals(request.getParameter("added"))) {
            return "passkey.added";
        }
        return "passkey".equals(request.getParameter("removed")) ? "passkey.removed" : null;
    }

    /** Whether the message is about passkeys (shown in their section). */
    public boolean isPasskeyMessage() {
        return messageKey != null && messageKey.startsWith("passkey.");
    }

    public String getPasskeyName() {
        return null;
    }

    public void setPasskeyName(String passkeyName) {
        this.passkeyName = passkeyName;
    }

    private String refused() {
        code = null;
        messageKey = "page.csrf";
        FacesContext.getCurrentInstance().getExternalContext().setResponseStatus(403);
        return null;
    }

    private String takeCode() {
        String c = code;
        code = null;
        return c;
    }

    public boolean isHasTotp() {
        if (hasTotp == null) {
            hasTotp = factors.hasTotp(signedIn.getUserId());
        }
        return hasTotp;
    }

    public boolean isEnrolling() {
        return recoveryCodes == null && !isHasTotp();
    }

    public int getRecoveryCodesLeft() {
        return factors.recoveryCodesLeft(signedIn.getUserId());
    }

    public String getQrCode() {
        String secret = enrolmentSecret();
        return secret == null ? "" : Totp.qrCodeDataUri(Totp.keyUri(SecondFactorBean.issuerLabel(config),
                signedIn.getUser().username(), secret));
    }

    public String getManualKey() {
        String secret = enrolmentSecret();
        return secret == null ? "" : SecondFactorBean.grouped(secret);
    }

    private String enrolmentSecret() {
        if (totpSecret == null && isEnrolling()) {
            totpSecret = factors.pendingTotp(signedIn.getUserId()).orElse(null);
        }
        return totpSecret;
    }

    public List<String> getRecoveryCodes() {
        return recoveryCodes;
    }

    public String getMessageKey() {
        return messageKey;
    }

    /** Always empty: a code is never written back into the page. */
    public String getCode() {
        return null;
    }

    public void setCode(String code) {
        this.code = code;
    }
}
