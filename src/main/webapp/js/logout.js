/*
 * The signed-out page of a front-channel logout (CSP script-src 'self': no inline script). The page loads each
 * relying party's front-channel logout URI in a hidden iframe (class frontchannel-logout); once every frame has
 * loaded, or after a bounded wait so that an unreachable relying party cannot hold the user, the browser continues
 * to the link with id "continue" (the post_logout_redirect_uri), if the page has one.
 */
(function () {
  'use strict';

  var WAIT_MS = 5000;
  var loaded = [];
  var gone = false;

  function frames() {
    return document.querySelectorAll('iframe.frontchannel-logout');
  }

  function go() {
    if (gone) {
      return;
    }
    var next = document.getElementById('continue');
    if (next) {
      gone = true;
      window.location.replace(next.href);
    }
  }

  function check() {
    if (document.readyState === 'loading') {
      return;
    }
    var all = frames();
    for (var i = 0; i < all.length; i++) {
      if (loaded.indexOf(all[i]) < 0) {
        return;
      }
    }
    go();
  }

  // load does not bubble, but it is seen while capturing; this script runs before the frames are parsed
  document.addEventListener('load', function (e) {
    var t = e.target;
    if (t && t.tagName === 'IFRAME' && t.classList.contains('frontchannel-logout') && loaded.indexOf(t) < 0) {
      loaded.push(t);
      check();
    }
  }, true);
  document.addEventListener('DOMContentLoaded', check);
  window.setTimeout(go, WAIT_MS);
}());
