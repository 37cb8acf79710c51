/*
 * Passkey ceremonies of the Portcullis pages (CSP script-src 'self': no inline script). A button with
 * data-passkey="create" or "get" carries the server's options (challenge, RP ID, user, credential ids, all
 * base64url); the browser's answer is written as JSON (WebAuthn Level 3 toJSON shape) into the hidden field named
 * by data-field, and the form is sent with the hidden button named by data-submit. The server checks everything.
 */
(function () {
  'use strict';

  function toBytes(b64url) {
    var b64 = b64url.replace(/-/g, '+').replace(/_/g, '/');
    var bin = atob(b64 + '==='.slice((b64.length + 3) % 4));
    var out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) {
      out[i] = bin.charCodeAt(i);
    }
    return out.buffer;
  }

  function toB64url(buffer) {
    var bytes = new Uint8Array(buffer);
    var bin = '';
    for (var i = 0; i < bytes.length; i++) {
      bin += String.fromCharCode(bytes[i]);
    }
    return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }

  function credentialList(ids) {
    return (ids || '').split(' ').filter(Boolean).map(function (id) {
      return { type: 'public-key', id: toBytes(id) };
    });
  }

  function creationOptions(d) {
    return {
      challenge: toBytes(d.challenge),
      rp: { id: d.rpId, name: d.rpName },
      user: { id: toBytes(d.userId), name: d.userName, displayName: d.userDisplay },
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }, { type: 'public-key', alg: -8 },
        { type: 'public-key', alg: -257 }],
      timeout: 120000,
      attestation: 'none',
      excludeCredentials: credentialList(d.credentials),
      authenticatorSelection: { residentKey: 'preferred', requireResidentKey: false, userVerification: 'preferred' }
    };
  }

  function requestOptions(d) {
    return {
      challenge: toBytes(d.challenge),
      rpId: d.rpId,
      timeout: 120000,
      allowCredentials: credentialList(d.credentials),
      userVerification: d.userVerification || 'preferred'
    };
  }

  function asJson(credential) {
    var r = credential.response;
    var response = { clientDataJSON: toB64url(r.clientDataJSON) };
    if (r.attestationObject) {
      response.attestationObject = toB64url(r.attestationObject);
      response.transports = typeof r.getTransports === 'function' ? r.getTransports() : [];
    } else {
      response.authenticatorData = toB64url(r.authenticatorData);
      response.signature = toB64url(r.signature);
      if (r.userHandle && r.userHandle.byteLength > 0) {
        response.userHandle = toB64url(r.userHandle);
      }
    }
    var json = {
      id: credential.id,
      rawId: toB64url(credential.rawId),
      type: credential.type,
      response: response,
      clientExtensionResults: credential.getClientExtensionResults ? credential.getClientExtensionResults() : {}
    };
    if (credential.authenticatorAttachment) {
      json.authenticatorAttachment = credential.authenticatorAttachment;
    }
    return JSON.stringify(json);
  }

  function showError(button) {
    var el = document.getElementById(button.dataset.error);
    if (el) {
      el.hidden = false;
    }
    button.disabled = false;
  }

  function start(button) {
    var d = button.dataset;
    if (!window.PublicKeyCredential || !navigator.credentials) {
      showError(button);
      return;
    }
    button.disabled = true;
    var ceremony = d.passkey === 'create'
      ? navigator.credentials.create({ publicKey: creationOptions(d) })
      : navigator.credentials.get({ publicKey: requestOptions(d) });
    ceremony.then(function (credential) {
      document.getElementById(d.field).value = asJson(credential);
      document.getElementById(d.submit).click();
    }, function () {
      showError(button);
    });
  }

  document.addEventListener('DOMContentLoaded', function () {
    var buttons = document.querySelectorAll('button[data-passkey]');
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].hidden = false;
      buttons[i].addEventListener('click', function (e) {
        start(e.currentTarget);
      });
    }
  });
}());
