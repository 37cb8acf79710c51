/*
 * The page of response_mode=form_post (CSP script-src 'self': no inline script): submits the form with id
 * "form-post", which carries the authorization response to the client's redirect URI. Without scripts the page's
 * noscript block shows a Continue button that submits the same form.
 */
(function () {
  'use strict';

  function submit() {
    var form = document.getElementById('form-post');
    if (form) {
      form.submit();
    }
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', submit);
  } else {
    submit();
  }
}());
