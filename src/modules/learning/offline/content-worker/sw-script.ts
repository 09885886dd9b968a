import { CONTENT_DB_SCRIPT } from './content-db.js'

/**
 * The content origin's service worker (DECISIONS §16, §13.3): a downloaded course plays from the device.
 * Package files and the SCORM player come from Cache Storage. For a downloaded session (and only for
 * one: any other request goes to the network untouched) it answers what the course would ask the
 * service: cmi5's fetch URL, the LRS's documents and statements, SCORM's runtime and commits. Statements
 * (with their own timestamp), commits (with a per-session sequence number) and the last version of each
 * document written (with the time written) are stored in order until the console takes them into its queue
 * through the download host; this worker never sends them and holds no user token, only each session's own
 * credential, which the course had anyway.
 */
export const SW_SCRIPT = `'use strict';
${CONTENT_DB_SCRIPT}
var SHELL = ['/offline/host', '/offline/host.js'];
var SCORM_API = /\\/api\\/v1\\/learn\\/scorm\\/sessions\\/([0-9a-f-]{36})\\/(runtime|commit)$/;
var CMI5_FETCH = /\\/api\\/v1\\/learn\\/cmi5\\/fetch\\/([0-9a-f-]{36})\\./;
var XAPI = /\\/api\\/v1\\/learn\\/xapi\\/(.+)$/;

self.addEventListener('install', function (event) {
  event.waitUntil(caches.open(FILES).then(function (cache) { return cache.addAll(SHELL); }).then(function () { return self.skipWaiting(); }));
});
self.addEventListener('activate', function (event) {
  event.waitUntil(self.clients.claim());
});

function json(body, status, headers) {
  return new Response(body === null ? null : JSON.stringify(body), {
    status: status || 200,
    headers: Object.assign({ 'content-type': 'application/json', 'x-experience-api-version': '1.0.3' }, headers || {}),
  });
}

async function ready(sessionId) {
  var session = sessionId && (await getSession(sessionId));
  return session && session.ready ? session : null;
}

/** Records of a session in the order made; a commit takes the session's next sequence number. */
async function keep(sessionId, kind, records, ended) {
  var tx = (await db()).transaction(['sessions', 'records'], 'readwrite');
  var sessions = tx.objectStore('sessions');
  var session = await request(sessions.get(sessionId));
  records.forEach(function (record) {
    if (kind === 'commit') record = Object.assign({ seq: (session.seq = (session.seq || 0) + 1) }, record);
    tx.objectStore('records').add({ sessionId: sessionId, kind: kind, record: record, at: Date.now() });
  });
  if (ended) session.ended = true;
  sessions.put(session);
  return done(tx);
}

var DOC_PARAMS = ['activityId', 'agent', 'registration', 'stateId', 'profileId'];
/** A document's last change offline, for the sync (its version, or its deletion): it replaces the earlier one not yet taken. */
async function keepDocument(sessionId, docKey, doc) {
  var tx = (await db()).transaction('records', 'readwrite');
  var records = tx.objectStore('records');
  (await request(records.index('bySession').getAll(sessionId))).forEach(function (r) {
    if (r.kind === 'document' && r.docKey === docKey) records.delete(r.key);
  });
  if (doc) records.add({ sessionId: sessionId, kind: 'document', docKey: docKey, record: doc, at: Date.now() });
  return done(tx);
}

async function packageFile(event, url) {
  var token = url.pathname.split('/')[2];
  var kept = await caches.match(fileKey(url));
  if (kept && (!url.pathname.startsWith('/player/') || (await allSessions()).some(function (s) { return s.ready && s.token === token; })))
    return kept;
  return fetch(event.request);
}

async function scorm(event, sessionId, what) {
  var session = await ready(sessionId);
  if (!session) return fetch(event.request);
  if (what === 'runtime') return json(session.runtime);
  var body = JSON.parse(await event.request.text());
  // The unload beacon carries the credential in its body: the queue has the session's own.
  var terminate = body.terminate === true;
  await keep(sessionId, 'commit', [{ cmi: body.cmi || {}, terminate: terminate }], terminate);
  return json({ result: 'true', errorCode: 0 });
}

async function cmi5Fetch(event, sessionId) {
  var session = await ready(sessionId);
  if (!session) return fetch(event.request);
  return json({ 'auth-token': session.auth });
}

async function xapi(event, url, resource) {
  var request = event.request;
  var auth = request.headers.get('authorization');
  var session = auth && (await allSessions()).find(function (s) { return s.ready && auth === 'Basic ' + s.auth; });
  if (!session) return fetch(request);
  var query = url.searchParams;
  if (resource === 'about') return json({ version: ['1.0.3'] });
  if (resource === 'statements') {
    if (request.method === 'GET') return json({ statements: [], more: '' });
    var sent = await request.json();
    var list = Array.isArray(sent) ? sent : [sent];
    if (request.method === 'PUT' && !list[0].id) list[0].id = query.get('statementId');
    var now = new Date().toISOString();
    list = list.map(function (st) { return Object.assign({}, st, { id: st.id || crypto.randomUUID(), timestamp: st.timestamp || now }); });
    var ended = list.some(function (st) { return st.verb && /\\/terminated$/.test(st.verb.id); });
    await keep(session.sessionId, 'statement', list, ended);
    return request.method === 'PUT' ? json(null, 204) : json(list.map(function (st) { return st.id; }));
  }
  var id = query.get('stateId') || query.get('profileId');
  if (!/^(activities\\/state|agents\\/profile|activities\\/profile)$/.test(resource)) return json({ message: 'Not available offline' }, 404);
  var docs = session.docs || {};
  var key = resource + ' ' + id;
  if (request.method === 'GET' || request.method === 'HEAD') {
    if (!id) return json(Object.keys(docs).filter(function (k) { return k.startsWith(resource + ' '); }).map(function (k) { return k.slice(resource.length + 1); }));
    var doc = docs[key];
    return doc ? new Response(doc.body, { headers: { 'content-type': doc.type, etag: '"' + doc.version + '"', 'x-experience-api-version': '1.0.3' } }) : json(null, 404);
  }
  var synced;
  if (request.method === 'DELETE') {
    delete docs[key];
    synced = { resource: resource, deleted: true, writtenAt: new Date().toISOString() };
  } else {
    var type = request.headers.get('content-type') || 'application/octet-stream';
    var body = await request.text();
    var old = docs[key];
    // POST merges JSON objects (xAPI 1.0.3 §2.2.7.1.1.2); PUT replaces. The sync sends the whole document.
    if (request.method === 'POST' && old && /json/.test(old.type) && /json/.test(type)) body = JSON.stringify(Object.assign(JSON.parse(old.body), JSON.parse(body)));
    docs[key] = { type: type, body: body, version: old ? old.version + 1 : 1 };
    synced = { resource: resource, contentType: type, body: body, writtenAt: new Date().toISOString() };
  }
  DOC_PARAMS.forEach(function (name) { if (query.has(name)) synced[name] = query.get(name); });
  await putSession(Object.assign(session, { docs: docs }));
  // A deletion of every state document (no stateId) is kept on the device only: the sync names one document each.
  await keepDocument(session.sessionId, key, id ? synced : null);
  return json(null, 204);
}

self.addEventListener('fetch', function (event) {
  // The download host's own fetches go to the network as they are: a link that drops mid-file leaves it every byte received.
  if (event.request.headers.has('x-offline-download')) return;
  var url = new URL(event.request.url);
  var scormMatch = SCORM_API.exec(url.pathname);
  var fetchMatch = event.request.method === 'POST' && CMI5_FETCH.exec(url.pathname);
  var xapiMatch = XAPI.exec(url.pathname);
  if (url.origin === location.origin && event.request.method === 'GET' && /^\\/(content|player|player-assets|offline)\\//.test(url.pathname))
    event.respondWith(packageFile(event, url));
  else if (scormMatch) event.respondWith(scorm(event, scormMatch[1], scormMatch[2]));
  else if (fetchMatch) event.respondWith(cmi5Fetch(event, fetchMatch[1]));
  // Some AUs join the endpoint and the resource with a second slash (…/xapi//activities/state), which the LRS takes too.
  else if (xapiMatch && event.request.method !== 'OPTIONS') event.respondWith(xapi(event, url, xapiMatch[1].replace(/^\\/+/, '')));
});
`
