/**
 * The SCORM player's sequencing (DECISIONS §13.6), served as a file beside the player's script, which calls
 * `window.playSequenced` for a SCORM 2004 course of several SCOs. scorm-again's sequencing runs on the
 * course's activity tree in one Scorm2004API for the whole launch: its navigation requests (the player's
 * previous / continue / outline, the SCO's adl.nav.request) deliver activities; each delivery asks the
 * service for the SCO's session, resets the API onto that session's commit URL and cmi (so each SCO keeps
 * its own suspend data and result) and frames the SCO. adl.data lives in the API across SCOs. The
 * sequencing state and shared data go to the service at each delivery and when the course is left, so a
 * learner who suspends all resumes at the activity left. A navigation the player asks of a running SCO is
 * made as the LMS makes it: the request set, then Terminate on the SCO's behalf.
 */
export const PLAYER_SEQUENCING_SCRIPT = `'use strict';
window.playSequenced = function (p) {
  var seq = p.runtime.sequencing;
  var items = {};
  seq.items.forEach(function (item) { items[item.activityId] = item; });
  var basic = function (id, secret) { return 'Basic ' + btoa('session.' + id + ':' + secret); };
  var current = { id: p.session, auth: basic(p.session, p.secret) };
  var baseOf = function (id) { return p.endpoint + '/api/v1/learn/scorm/sessions/' + encodeURIComponent(id); };
  var validity = { continue: false, previous: false, choice: {} };
  var activeId = null;
  var stopIdle = function () {};
  var ended = false;
  var busy = Promise.resolve();
  var running = function () { return Boolean(api) && api.isInitialized() && !api.isTerminated(); };

  var bar = document.createElement('nav');
  bar.setAttribute('aria-label', 'Course');
  bar.className = 'player-nav';
  var outline = document.createElement('ol');
  outline.className = 'player-outline';
  var buttons = document.createElement('div');
  var button = function (label, onClick) {
    var b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.addEventListener('click', onClick);
    buttons.appendChild(b);
    return b;
  };
  var previous = button('Previous', function () { navigate('previous'); });
  var next = button('Continue', function () { navigate('continue'); });
  button('Suspend and leave', function () { navigate('suspendAll'); });
  button('Exit course', function () { navigate('exitAll'); });
  var note = document.createElement('p');
  note.id = 'player-note';
  note.setAttribute('role', 'status');
  bar.append(outline, buttons, note);
  var style = document.createElement('style');
  style.textContent = '.player-nav{display:flex;flex-wrap:wrap;gap:.5em 1em;align-items:center;padding:.25em .5em;font:14px system-ui,sans-serif;border-bottom:1px solid #ccc}'
    + '.player-outline{display:flex;flex-wrap:wrap;gap:.25em 1em;margin:0;padding:0;list-style-position:inside}'
    + '.player-outline [aria-current]{font-weight:bold}.player-nav p{margin:0}.player-nav div{display:flex;flex-wrap:wrap;gap:.25em}'
    + 'body{display:flex;flex-direction:column}iframe{flex:1 1 auto;min-height:0;height:auto}';
  document.head.appendChild(style);

  var leaves = [];
  (function walk(node) {
    if (items[node.id]) leaves.push(node);
    (node.children || []).forEach(walk);
  })(seq.activityTree);
  // While a SCO runs, adl.nav.request_valid answers with every rule (limit conditions too); between SCOs,
  // the last validity scorm-again announced.
  var valid = function (request, target) {
    if (ended) return false;
    if (!running()) return target ? validity.choice[target] === 'true' : Boolean(validity[request]);
    var element = 'adl.nav.request_valid.' + (target ? 'choice.{target=' + target + '}' : request);
    return api.GetValue(element) === 'true';
  };
  var render = function () {
    outline.replaceChildren.apply(outline, leaves.map(function (node) {
      var li = document.createElement('li');
      var canChoose = node.id !== activeId && valid('choice', node.id);
      var label = canChoose ? document.createElement('button') : document.createElement('span');
      label.textContent = node.title;
      if (canChoose) {
        label.type = 'button';
        label.addEventListener('click', function () { navigate('choice', node.id); });
      }
      if (node.id === activeId) li.setAttribute('aria-current', 'step');
      li.appendChild(label);
      return li;
    }));
    previous.disabled = !valid('previous');
    next.disabled = !valid('continue');
  };

  var api = new p.Api(Object.assign(p.settingsFor(baseOf(current.id), current.auth), {
    sequencing: {
      activityTree: seq.activityTree,
      eventListeners: {
        onActivityDelivery: function (activity) { setTimeout(function () { deliver(activity.id); }, 0); },
        onNavigationValidityUpdate: function (update) { validity = update; render(); },
        onSequencingSessionEnd: function () { setTimeout(leave, 0); },
      },
    },
  }));
  window.API_1484_11 = api;

  var keep = function (deliverIndex) {
    var body = { state: api.serializeSequencingState(), sharedData: api.captureSharedDataSnapshot() };
    if (deliverIndex !== undefined) body.deliver = deliverIndex;
    if (deliverIndex !== undefined && activeId === null) body.fresh = true;
    return fetch(baseOf(current.id) + '/sequencing', {
      method: 'POST', headers: { authorization: current.auth, 'content-type': 'application/json' }, body: JSON.stringify(body),
    }).then(function (response) {
      return response.json().then(function (answer) {
        if (!response.ok) throw new Error(answer.detail || 'The course could not go on.');
        return answer;
      });
    });
  };
  // Before the first SCO the page still shows the player's status line; after, the note in the bar.
  var tell = function (text) {
    if (bar.isConnected) note.textContent = text;
    else p.say(text);
  };
  var deliver = function (activityId) {
    busy = busy.then(function () {
      var item = items[activityId];
      if (!item) return tell('This activity has nothing to launch.');
      return keep(item.auIndex).then(function (answer) {
        if (answer.secret) current = { id: answer.sessionId, auth: basic(answer.sessionId, answer.secret) };
        return fetch(baseOf(current.id) + '/runtime', { headers: { authorization: current.auth } });
      }).then(function (response) { return response.json(); }).then(function (runtime) {
        return unloadSco().then(function () { return runtime; });
      }).then(function (runtime) {
        api.reset(p.settingsFor(baseOf(current.id), current.auth));
        // Once the SCO has initialized, the outline and buttons follow every rule (reset drops listeners).
        api.on('Initialize', function () { setTimeout(render, 0); });
        // scorm-again seeds the delivered activity's objectives from the tree at its reset: the ids again would repeat them.
        var cmi = Object.assign({}, runtime.cmi);
        delete cmi.objectives;
        api.loadFromJSON({ cmi: cmi });
        activeId = activityId;
        note.textContent = '';
        p.frame.src = p.contentBase + item.url;
        stopIdle();
        if (item.asset) p.visitAsset(api);
        else stopIdle = p.watchIdle(api, baseOf(current.id), current.auth);
        if (!p.frame.isConnected) document.body.replaceChildren(bar, p.frame);
        render();
      });
    }).catch(function (error) { tell(error.message); });
  };
  var leave = function () {
    if (ended) return;
    ended = true;
    stopIdle();
    busy = busy.then(function () { return keep(); }).then(function () {
      var done = document.createElement('p');
      done.textContent = 'You have left the course. You may close this page.';
      var back = document.createElement('button');
      back.type = 'button';
      back.textContent = 'Back';
      back.addEventListener('click', function () { history.back(); });
      document.body.replaceChildren(done, back);
    }).catch(function (error) { tell(error.message); });
  };
  // The SCO unloads first, so that its own unload handler terminates it (calls after that would fail).
  var unloadSco = function () {
    if (!p.frame.isConnected || p.frame.src === 'about:blank') return Promise.resolve();
    return new Promise(function (resolve) {
      p.frame.addEventListener('load', function () { resolve(); }, { once: true });
      p.frame.src = 'about:blank';
    });
  };
  var navigate = function (request, target) {
    if ((request === 'continue' || request === 'previous' || request === 'choice') && !valid(request, target)) {
      tell('That is not available here.');
      return;
    }
    if (running()) {
      api.SetValue('adl.nav.request', target ? '{target=' + target + '}' + request : request);
      if (request === 'suspendAll') api.SetValue('cmi.exit', 'suspend');
      unloadSco().then(function () { if (running()) api.Terminate(''); });
    } else if (!api.processNavigationRequest(request, target)) {
      tell('That is not available here.');
    }
  };

  if (Object.keys(seq.sharedData).length > 0) api.restoreSharedDataSnapshot(seq.sharedData);
  var resumed = seq.state !== null && api.deserializeSequencingState(seq.state) && api.processNavigationRequest('resumeAll');
  if (!resumed && !api.processNavigationRequest('start')) p.say('There is nothing more to play in this course.');
};
`
