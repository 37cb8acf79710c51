package dev.portcullis.signin;

import dev.portcullis.config.PortcullisConfig;
import dev.portcullis.mfa.SecondFactors;
import dev.portcullis.mfa.Totp;
import dev.portcullis.protocol.ClientAddress;
import dev.portcullis.session.SsoSessions;
import jakarta.enterprise.context.RequestScoped;
import jakarta.faces.context.FacesContext;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Optional;

/**
 * Backing bean of {@code /account/security.xhtml}: the signed-in user ({@link SignedInUser}) sets up an
 * authenticator app (QR code, first code, recovery codes shown once) or removes it with a current code. What the
 * page shows is decided from the database on GET and POST alike, so the stateless view decodes the form it rendered.
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

    private String code;
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
