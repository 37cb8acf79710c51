package dev.portcullis.accountpage;

import dev.portcullis.account.SignInService;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.mfa.FactorChangeService;
import dev.portcullis.mfa.PasskeyService;
import dev.portcullis.mfa.SecondFactorService;
import dev.portcullis.mfa.TotpEnrolmentDisplay;
import dev.portcullis.signin.OwnPage;
import dev.portcullis.signin.SignedInUser;
import dev.portcullis.protocol.ClientAddress;
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
import java.util.function.Supplier;

/**
 * Backing bean of {@code /account/security.xhtml}: the signed-in user ({@link SignedInUser}) sets up an
 * authenticator app (QR code, first code, recovery codes shown once) or removes it with a current code, and
 * registers, lists and deletes passkeys. Adding or removing needs a recent step-up ({@link FactorChangeService}): until
 * then the page asks for a second factor (or, for a user without one, the password) instead of showing the set-up,
 * and the actions answer 403 on their own. What the page shows is decided from the database on GET and POST alike,
 * so the stateless view decodes the form it rendered.
 */
@Named("securityBean")
@RequestScoped
public class AccountSecurityBean {

    @Inject
    SignedInUser signedIn;

    @Inject
    SecondFactorService factors;

    @Inject
    ClientAddress clientAddress;

    @Inject
    HttpServletRequest request;

    @Inject
    IssuerSettings issuer;

    @Inject
    FactorChangeService changes;

    @Inject
    PasskeyService passkeys;

    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
            .withZone(ZoneOffset.UTC);

    private String code;
    private String stepUpCode;
    private String password;
    private FactorChangeService.StepUp stepUp;
    private PasskeyService.Ceremony stepUpCeremony;
    private String passkeyName;
    private List<PasskeyService.Passkey> passkeyList;
    private PasskeyService.Ceremony registration;
    private final Supplier<TotpEnrolmentDisplay> enrolment = TotpEnrolmentDisplay.pending(() -> isEnrolling()
            ? factors.pendingTotp(signedIn.getUserId(), signedIn.getSession().sessionHash()) : Optional.empty(),
            () -> issuer.issuer(), () -> signedIn.getUser().username());
    private Boolean hasTotp;
    private List<String> recoveryCodes;
    private String messageKey;

    /** Confirms the new authenticator with its first code; the recovery codes are shown once. */
    public String confirm() {
        if (signedIn.authorizedActor().isEmpty()) {
            return refused();
        }
        if (!isMayChange()) {
            return stepUpNeeded();
        }
        Optional<List<String>> codes = changes.confirmTotp(signedIn.getUser(), signedIn.getSession(), takeCode(),
                FactorChangeService.Where.ACCOUNT_PAGE, clientAddress.of(request));
        if (codes.isEmpty()) {
            messageKey = "factor.invalid";
        } else {
            recoveryCodes = codes.get();
            hasTotp = true;
        }
        return null;
    }

    /** Removes the authenticator and the recovery codes; a current code (or a recovery code) proves the owner asks. */
    public String remove() {
        if (signedIn.authorizedActor().isEmpty()) {
            return refused();
        }
        SecondFactorService.Outcome outcome = changes.removeTotp(signedIn.getUser(), signedIn.getSession(), takeCode(),
                OwnPage.ACCOUNT.clientId(), clientAddress.of(request));
        if (outcome == SecondFactorService.Outcome.ACCEPTED) {
            hasTotp = false;
            messageKey = "security.removed";
        } else {
            codeRefused(outcome);
        }
        return null;
    }

    /** The step-up with a one-time code or a recovery code (a user who has a factor). */
    public String stepUpWithCode() {
        String c = stepUpCode;
        stepUpCode = null;
        if (signedIn.authorizedActor().isEmpty()) {
            return refused();
        }
        return steppedUp(changes.stepUpWithCode(signedIn.getUser(), signedIn.getSession(), c,
                OwnPage.ACCOUNT.clientId(), clientAddress.of(request)), 200);
    }

    /** The step-up with a passkey (field {@code passkey}, from /js/passkeys.js); a refused one answers 400. */
    public String stepUpWithPasskey() {
        if (signedIn.authorizedActor().isEmpty()) {
            return refused();
        }
        return steppedUp(changes.stepUpWithPasskey(signedIn.getUser(), signedIn.getSession(),
                request.getParameter("passkey"), OwnPage.ACCOUNT.clientId(), clientAddress.of(request)), 400);
    }

    /** After a step-up: the page again (now with the set-up), or why not, with {@code refusedStatus}. */
    private String steppedUp(SecondFactorService.Outcome outcome, int refusedStatus) {
        if (outcome == SecondFactorService.Outcome.ACCEPTED) {
            signedIn.redirect("/account/security.xhtml");
        } else {
            codeRefused(outcome);
            signedIn.status(refusedStatus);
        }
        return null;
    }

    /** The step-up of a user without any factor: the password again, checked and throttled as at sign-in. */
    public String stepUpWithPassword() {
        String p = password;
        password = null;
        if (signedIn.authorizedActor().isEmpty()) {
            return refused();
        }
        SignInService.Outcome outcome = changes.stepUpWithPassword(signedIn.getUser(), signedIn.getSession(), p,
                OwnPage.ACCOUNT.clientId(), clientAddress.of(request));
        switch (outcome) {
            case SIGNED_IN -> signedIn.redirect("/account/security.xhtml");
            case WAIT, BUSY, UNAVAILABLE -> messageKey = "login.wait";
            case LOCKED -> messageKey = "login.locked";
            default -> messageKey = "security.passwordWrong";
        }
        return null;
    }

    private void codeRefused(SecondFactorService.Outcome outcome) {
        messageKey = switch (outcome) {
            case WAIT -> "login.wait";
            case LOCKED -> "login.locked";
            default -> "factor.invalid";
        };
    }

    /**
     * Registers a passkey from the browser's answer (field {@code passkey}, written by /js/passkeys.js) to the
     * challenge this page gave this session. A refused one (malformed, replayed, foreign) answers 400.
     */
    public String registerPasskey() {
        if (signedIn.authorizedActor().isEmpty()) {
            return refused();
        }
        String name = passkeyName;
        passkeyName = null;
        if (!isMayChange()) {
            return stepUpNeeded();
        }
        if (changes.registerPasskey(signedIn.getUser(), signedIn.getSession(), name, request.getParameter("passkey"),
                FactorChangeService.Where.ACCOUNT_PAGE, clientAddress.of(request))) {
            signedIn.redirect("/account/security.xhtml?added=passkey");
        } else {
            messageKey = "passkey.invalid";
            signedIn.status(400);
        }
        return null;
    }

    /**
     * Deletes the passkey named by the row's field {@code passkey-id}, from a session that gave a second factor
     * recently only (as removing the app needs a current code): the password alone must not strip a user's factors.
     */
    public String removePasskey() {
        if (signedIn.authorizedActor().isEmpty()) {
            return refused();
        }
        if (!isMayChange()) {
            messageKey = "passkey.removeNeedsFactor";
            signedIn.status(403);
            return null;
        }
        changes.removePasskey(signedIn.getUser(), signedIn.getSession(), signedIn.parameter("passkey-id", 64),
                clientAddress.of(request));
        signedIn.redirect("/account/security.xhtml?removed=passkey");
        return null;
    }

    /** What the session must give before it may add or remove a factor (looked up once per request). */
    public FactorChangeService.StepUp getStepUp() {
        if (stepUp == null) {
            stepUp = changes.stepUpNeeded(signedIn.getUser(), signedIn.getSession());
        }
        return stepUp;
    }

    /** Whether factors may be added or removed now: the session stepped up recently. */
    public boolean isMayChange() {
        return getStepUp() == FactorChangeService.StepUp.NONE;
    }

    /** Whether the page asks for the password (a user without any factor who has not re-entered it recently). */
    public boolean isStepUpWithPassword() {
        return recoveryCodes == null && getStepUp() == FactorChangeService.StepUp.PASSWORD;
    }

    /** Whether the page asks for a second factor (a user who has one and has not given it recently). */
    public boolean isStepUpWithFactor() {
        return recoveryCodes == null && getStepUp() == FactorChangeService.StepUp.SECOND_FACTOR;
    }

    /** The passkey ceremony of the step-up: an assertion by one of the user's passkeys, bound to this session. */
    public PasskeyService.Ceremony getStepUpCeremony() {
        if (stepUpCeremony == null) {
            stepUpCeremony = passkeys.begin(PasskeyService.Purpose.FACTOR, signedIn.getSession().sessionHash(),
                    signedIn.getUserId());
        }
        return stepUpCeremony;
    }

    public boolean isHasPasskey() {
        return !getPasskeys().isEmpty();
    }

    /** An action asked for without the step-up: 403, and the page shows the step-up instead. */
    private String stepUpNeeded() {
        code = null;
        messageKey = "security.stepUpNeeded";
        signedIn.status(403);
        return null;
    }

    /** The user's passkeys, oldest first. */
    public List<PasskeyService.Passkey> getPasskeys() {
        if (passkeyList == null) {
            passkeyList = passkeys.list(signedIn.getUserId());
        }
        return passkeyList;
    }

    public String when(Instant at) {
        return at == null ? "—" : WHEN.format(at);
    }

    /** Whether another passkey may be registered now (the step-up given, fewer than the limit). */
    public boolean isMayAddPasskey() {
        return isMayChange() && getPasskeys().size() < PasskeyService.MAX_PER_USER;
    }

    /** The registration ceremony of this page view: a fresh challenge bound to this session (after the step-up). */
    public PasskeyService.Ceremony getRegistration() {
        if (registration == null && isMayChange()) {
            registration = passkeys.begin(PasskeyService.Purpose.REGISTER, signedIn.getSession().sessionHash(),
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

    /** Whether the page sets up an authenticator app: none yet, and the step-up given. */
    public boolean isEnrolling() {
        return recoveryCodes == null && !isHasTotp() && isMayChange();
    }

    public int getRecoveryCodesLeft() {
        return factors.recoveryCodesLeft(signedIn.getUserId());
    }

    public String getQrCode() {
        return enrolment.get().qrCode();
    }

    public String getManualKey() {
        return enrolment.get().manualKey();
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

    /** Always empty, as {@link #getCode}. */
    public String getStepUpCode() {
        return null;
    }

    public void setStepUpCode(String stepUpCode) {
        this.stepUpCode = stepUpCode;
    }

    /** Always empty: a password is never written back into the page. */
    public String getPassword() {
        return null;
    }

    public void setPassword(String password) {
        this.password = password;
    }
}
