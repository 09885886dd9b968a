import { CONTENT_PREFIX } from '../../content/content.paths.js'

/**
 * The SCORM player's script, served as a file from the content origin (no inline script on the page).
 * It reads the session from the launch URL's fragment (which the browser never sends to a server),
 * loads the session's starting cmi from the API, creates scorm-again's `Scorm12API` or `Scorm2004API`
 * committing to the session's commit URL with the session's credential, attaches it where a SCO looks
 * for it (`window.API`, `window.API_1484_11`) and frames the SCO, which is on the same origin.
 * The final commit goes by `navigator.sendBeacon` as text/plain, which carries no headers: scorm-again
 * marks it `terminate: true` and the request handler adds the credential to its body.
 * An asset never calls the API: once it has loaded, the player records the visit as completed for it
 * (DECISIONS §13.6) through the same API, so its session ends and is judged like a SCO's. A SCORM 2004
 * course of several SCOs plays with sequencing (player-sequencing-script.ts).
 */
export const PLAYER_SCRIPT = `'use strict';
(async function play() {
  var status = document.getElementById('player-status');
  var say = function (text) { status.textContent = text; };
  var fragment = new URLSearchParams(location.hash.slice(1));
  var session = fragment.get('session');
  var secret = fragment.get('secret');
  var endpoint = fragment.get('endpoint');
  var sco = new URLSearchParams(location.search).get('sco');
  var token = location.pathname.split('/')[2];
  if (!session || !secret || !endpoint || !sco || !token) return say('This is not a launch link: launch the course again.');
  var auth = 'Basic ' + btoa('session.' + session + ':' + secret);
  var base = endpoint + '/api/v1/learn/scorm/sessions/' + encodeURIComponent(session);
  var response;
  try {
    response = await fetch(base + '/runtime', { headers: { authorization: auth } });
  } catch (error) {
    return say('The course could not reach the service: ' + error.message);
  }
  var runtime = await response.json();
  if (!response.ok) return say(runtime.detail || 'The course could not start.');
  var scorm12 = runtime.standard === 'scorm12';
  var Api = scorm12 ? window.Scorm12API : window.Scorm2004API;
  var frame = document.createElement('iframe');
  frame.title = 'Course';
  var settingsFor = function (commitBase, commitAuth) {
    return {
      lmsCommitUrl: commitBase + '/commit',
      xhrHeaders: { Authorization: commitAuth },
      autocommit: true,
      autocommitSeconds: 30,
      terminateCommitPayloadField: 'terminate',
      requestHandler: function (commit) {
        return commit && commit.terminate ? Object.assign({}, commit, { auth: commitAuth }) : commit;
      },
    };
  };
  var visitAsset = function (api) {
    frame.addEventListener('load', function visited() {
      frame.removeEventListener('load', visited);
      if (scorm12) {
        api.LMSInitialize('');
        api.LMSSetValue('cmi.core.lesson_status', 'completed');
        api.LMSFinish('');
      } else {
        api.Initialize('');
        api.SetValue('cmi.completion_status', 'completed');
        api.Terminate('');
      }
    });
  };
  // A SCO that has not called the API idleSeconds after it was framed is not responding: the learner is told,
  // with a way back, and the service (which checks the rule itself) ends its session as abandoned.
  var watchIdle = function (api, commitBase, commitAuth) {
    var timer = setTimeout(function () {
      if (!api.isNotInitialized()) return;
      fetch(commitBase + '/idle', { method: 'POST', headers: { authorization: commitAuth } }).catch(function () {});
      var text = document.createElement('p');
      text.id = 'player-idle';
      text.setAttribute('role', 'alert');
      text.textContent = 'This content is not responding.';
      var back = document.createElement('button');
      back.type = 'button';
      back.textContent = 'Back';
      back.addEventListener('click', function () { history.back(); });
      document.body.replaceChildren(text, back);
    }, runtime.idleSeconds * 1000);
    return function () { clearTimeout(timer); };
  };
  if (runtime.sequencing) return window.playSequenced({
    Api: Api, frame: frame, say: say, runtime: runtime, settingsFor: settingsFor, visitAsset: visitAsset, watchIdle: watchIdle,
    endpoint: endpoint, session: session, secret: secret, contentBase: '${CONTENT_PREFIX}/' + token + '/',
  });
  var api = new Api(settingsFor(base, auth));
  api.loadFromJSON({ cmi: runtime.cmi });
  window[scorm12 ? 'API' : 'API_1484_11'] = api;
  frame.src = '${CONTENT_PREFIX}/' + token + '/' + sco;
  if (runtime.asset) visitAsset(api);
  else watchIdle(api, base, auth);
  document.body.replaceChildren(frame);
})();
`
