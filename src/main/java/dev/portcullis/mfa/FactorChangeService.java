package dev.portcullis.mfa;

import dev.portcullis.account.SignInService;
import dev.portcullis.account.User;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.metrics.Metrics;
import dev.portcullis.session.AuthMethods;
import dev.portcullis.session.SsoSession;
import dev.portcullis.session.SsoSessionRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Who may add or remove a second factor, and the one place that does it. On the account page a session may change
 * its user's factors only within {@link #STEP_UP} of completing a second factor; a user without any factor instead
 * re-enters the password there (the sign-in's check and throttle). At sign-in, where a client or
 * {@code portcullis.mfa.required} makes a user without a factor set one up, the set-up is allowed for that user
 * only, and only within {@link #STEP_UP} of a password given in this session (its sign-in, or entered again on the
 * page); it adds nothing to the session's {@code amr}: it satisfies the policy, and the page then asks for the new
 * factor like any other, so {@code acr} mfa always rests on a factor given. Every change ends the user's other SSO
 * sessions and is audited; each method re-checks the step-up itself (the pages only hide what it would refuse).
 */
@ApplicationScoped
public class FactorChangeService {

    /** How long a second factor (or, without one, the password) given in a session opens the factor changes. */
    public static final Duration STEP_UP = Duration.ofMinutes(10);

    @Inject
    SecondFactorService factors;

    @Inject
    Metrics metrics;

    @Inject
    PasskeyService passkeys;

    @Inject
    SsoSessionRepository sessions;

    @Inject
    SignInService signIn;

    @Inject
    AuditLog audit;

    @Inject
    Clock clock;

    /** What a session must give before it may change its user's factors (or, at sign-in, set up a first one). */
    public enum StepUp {
        /** Nothing: a second factor (or, for a user without one, the password) was given recently. */
        NONE,
        /** A second factor: the user has one (a code, a recovery code or a passkey). */
        SECOND_FACTOR,
        /** The password again: the user has no factor at all. */
        PASSWORD
    }

    /** Where the change is asked for: the account page, or the set-up a sign-in requires of a user without one. */
    public enum Where { ACCOUNT_PAGE, SIGN_IN }

    public StepUp stepUpNeeded(User user, SsoSession s) {
        return stepUpNeeded(hasFactor(user.userId()), s, clock.instant());
    }

    /** The rule, on its own: a recent factor opens; without any factor a recent password re-entry does. */
    static StepUp stepUpNeeded(boolean hasFactor, SsoSession s, Instant now) {
        Instant since = now.minus(STEP_UP);
        if (s.gaveFactorSince(since)) {
            return StepUp.NONE;
        }
        if (hasFactor) {
            return StepUp.SECOND_FACTOR;
        }
        return s.gavePasswordSince(since) ? StepUp.NONE : StepUp.PASSWORD;
    }

    /**
     * What a session must give before it may set up a first factor at sign-in: nothing within {@link #STEP_UP} of
     * giving the password in it (at its sign-in or again since), else the password again, so an old session cannot
     * enrol a factor of its own and then give it for {@code acr} mfa.
     */
    public StepUp enrolmentStepUpNeeded(SsoSession s) {
        return enrolmentStepUpNeeded(s, clock.instant());
    }

    /** The sign-in's rule, on its own. */
    static StepUp enrolmentStepUpNeeded(SsoSession s, Instant now) {
        Instant since = now.minus(STEP_UP);
        return s.gavePasswordSince(since) || s.signedInWithPasswordSince(since) ? StepUp.NONE : StepUp.PASSWORD;
    }

    /** Whether the user has a confirmed authenticator or a passkey. */
    public boolean hasFactor(String userId) {
        return factors.hasTotp(userId) || passkeys.has(userId);
    }

    /** A step-up with a one-time or recovery code (counted like the sign-in's second step). */
    public SecondFactorService.Outcome stepUpWithCode(User user, SsoSession s, String code, String clientId, String ip) {
        SecondFactorService.Outcome outcome = factors.verify(user, code, clientId, ip);
        if (outcome == SecondFactorService.Outcome.ACCEPTED) {
            sessions.addMethods(s, AuthMethods.OTP);
        }
        return outcome;
    }

    /** A step-up with a passkey answering a {@link PasskeyService.Purpose#FACTOR} challenge of this session. */
    public SecondFactorService.Outcome stepUpWithPasskey(User user, SsoSession s, String json, String clientId, String ip) {
        SecondFactorService.Outcome outcome = passkeys.verifySecondFactor(user, json, s.sessionHash(), clientId, ip);
        if (outcome == SecondFactorService.Outcome.ACCEPTED) {
            sessions.addMethods(s, AuthMethods.HWK);
        }
        return outcome;
    }

    /**
     * The step-up of a user without any factor: the password again, checked and throttled as at sign-in. Refused
     * (INVALID, nothing checked) for a user who has a factor: they give the factor.
     */
    public SignInService.Outcome stepUpWithPassword(User user, SsoSession s, String password, String clientId,
                                                    String ip) {
        if (hasFactor(user.userId()) || !user.userId().equals(s.userId())) {
            return SignInService.Outcome.INVALID;
        }
        SignInService.Result r = signIn.signIn(user.username(), password, clientId, ip);
        if (r.outcome() != SignInService.Outcome.SIGNED_IN
                || !r.user().map(u -> u.userId().equals(user.userId())).orElse(false)) {
            return r.outcome() == SignInService.Outcome.SIGNED_IN ? SignInService.Outcome.INVALID : r.outcome();
        }
        sessions.notePassword(s);
        return SignInService.Outcome.SIGNED_IN;
    }

    /**
     * Confirms the authenticator pending in this session with its first code; the recovery codes (shown once), or
     * empty when refused (no step-up), wrong, or nothing pending for this session.
     */
    @Transactional
    public Optional<List<String>> confirmTotp(User user, SsoSession s, String code, Where where, String ip) {
        if (!allowed(user, s, where, ip, "authenticator set-up")) {
            return Optional.empty();
        }
        Optional<List<String>> codes = factors.confirmTotp(user, s.sessionHash(), code, ip);
        codes.ifPresent(c -> added(user, s, ip, "authenticator added"));
        return codes;
    }

    /** Registers a passkey from the browser's answer to this session's challenge; false when refused or invalid. */
    @Transactional
    public boolean registerPasskey(User user, SsoSession s, String name, String json, Where where, String ip) {
        if (!allowed(user, s, where, ip, "passkey registration")
                || !passkeys.register(user, name, json, s.sessionHash(), ip)) {
            return false;
        }
        added(user, s, ip, "passkey added");
        return true;
    }

    /**
     * Removes the authenticator app and the recovery codes; a current code (or a recovery code) given with it is the
     * step-up, so it is counted and recorded like one. The code's outcome: ACCEPTED when removed.
     */
    @Transactional
    public SecondFactorService.Outcome removeTotp(User user, SsoSession s, String code, String clientId, String ip) {
        SecondFactorService.Outcome outcome = stepUpWithCode(user, s, code, clientId, ip);
        if (outcome == SecondFactorService.Outcome.ACCEPTED) {
            factors.removeAll(user.userId());
            audit.success(AuditEvent.Type.SECOND_FACTORS_RESET, null, user.userId(), ip,
                    "authenticator and recovery codes removed by their user");
            changed(user, s, ip, "authenticator removed");
        }
        return outcome;
    }

    /** Removes one passkey of the user, after a recent step-up; false when refused or not theirs. */
    @Transactional
    public boolean removePasskey(User user, SsoSession s, String passkeyId, String ip) {
        if (!allowed(user, s, Where.ACCOUNT_PAGE, ip, "passkey removal")
                || !passkeys.remove(user.userId(), passkeyId, ip)) {
            return false;
        }
        changed(user, s, ip, "passkey removed");
        return true;
    }

    /**
     * The check every change makes first: the session is the user's, and on the account page it has stepped up
     * recently; at sign-in the user has no factor yet (the page asks for one only where it is required) and gave the
     * password recently. A refusal is audited.
     */
    private boolean allowed(User user, SsoSession s, Where where, String ip, String what) {
        boolean ok = user.userId().equals(s.userId()) && (where == Where.SIGN_IN
                ? !hasFactor(user.userId()) && enrolmentStepUpNeeded(s) == StepUp.NONE
                : stepUpNeeded(user, s) == StepUp.NONE);
        if (!ok) {
            audit.failure(AuditEvent.Type.SECOND_FACTOR_FAILURE, null, user.userId(), ip,
                    what + " refused: no recent step-up");
        }
        return ok;
    }

    /** A factor was added: the session notes that its user has one now (no factor given), and the others end. */
    private void added(User user, SsoSession s, String ip, String what) {
        sessions.markFactorEnrolled(s);
        changed(user, s, ip, what);
    }

    /** A factor was added or removed: every other session of the user ends (this browser's stays). */
    private void changed(User user, SsoSession s, String ip, String what) {
        int ended = sessions.endOthersOf(user.userId(), s);
        audit.success(AuditEvent.Type.SESSION_ENDED, null, user.userId(), ip,
                what + ": " + ended + (ended == 1 ? " other SSO session" : " other SSO sessions") + " ended");
        metrics.logout(Metrics.LogoutTrigger.FACTOR_CHANGE);
    }
}
