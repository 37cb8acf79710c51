package dev.portcullis.tokenuse;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares that an endpoint (method, or every method of a class) never accepts a user's access token: a request
 * presenting a valid one is refused with 403 by {@link DelegationFilter}, even when the user is an operator. This is
 * also the rule for every method that declares nothing; the annotation makes the intent visible where it matters
 * (and {@code DelegationDeclarationsTest} requires a declaration on every {@code /api} method).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface NotDelegable {
}
