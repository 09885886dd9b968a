import { CONTENT_DB_SCRIPT } from './content-db.js'

/**
 * The download host (DECISIONS §16): a page of the content origin that the console frames, hidden, and
 * talks to by postMessage, answering only the console's origin. It installs the content origin's
 * service worker, downloads a session's files into Cache Storage (checking each one's SHA-256; files
 * already kept are skipped, so a cut download continues where it stopped), keeps what the console
 * prepared for the session, and hands the records made offline to the console, which queues and sends
 * them with the user's token: that token never reaches this origin.
 */
export const HOST_SCRIPT = `'use strict';
${CONTENT_DB_SCRIPT}
var consoleOrigin = document.documentElement.dataset.console;

function hex(buffer) {
  return Array.from(new Uint8Array(buffer)).map(function (b) { return b.toString(16).padStart(2, '0'); }).join('');
}

async function worker() {
  // With no link the update check fails; the worker installed before still serves.
  await navigator.serviceWorker.register('/offline-sw.js', { scope: '/' }).catch(function () {});
  return navigator.serviceWorker.ready;
}

async function downloadFile(cache, file, progress) {
  var response = await fetch(file.url, { cache: 'no-store' });
  if (!response.ok) throw new Error('The service answered ' + response.status + ' for ' + new URL(file.url).pathname);
  var reader = response.body.getReader();
  var chunks = [];
  for (;;) {
    var next = await reader.read();
    if (next.done) break;
    chunks.push(next.value);
    progress(next.value.length);
  }
  var blob = new Blob(chunks);
  if (hex(await crypto.subtle.digest('SHA-256', await blob.arrayBuffer())) !== file.sha256)
    throw new Error('A downloaded file did not match its digest: ' + new URL(file.url).pathname);
  var type = response.headers.get('content-type') || 'application/octet-stream';
  await cache.put(fileKey(new URL(file.url)), new Response(blob, { headers: { 'content-type': type } }));
}

async function download(message, reply) {
  await worker();
  var cache = await caches.open(FILES);
  var total = message.files.reduce(function (n, f) { return n + f.bytes; }, 0);
  var got = 0;
  var say = function () { reply({ progress: { bytes: got, total: total } }); };
  for (var file of message.files) {
    if (await cache.match(fileKey(new URL(file.url)))) got += file.bytes;
    else {
      var before = got;
      await downloadFile(cache, file, function (n) { got += n; say(); }).catch(function (error) { got = before; throw error; });
    }
    say();
  }
  var old = await getSession(message.session.sessionId);
  await putSession(Object.assign({ seq: 0, ended: false, docs: {} }, old || {}, message.session, { ready: true, files: message.files.map(function (f) { return fileKey(new URL(f.url)); }) }));
  return { bytes: total };
}

async function take(message) {
  var tx = (await db()).transaction(['records', 'sessions']);
  var records = [];
  var ended = [];
  for (var id of message.sessionIds) {
    records.push.apply(records, await request(tx.objectStore('records').index('bySession').getAll(id)));
    var session = await request(tx.objectStore('sessions').get(id));
    if (session && session.ended) ended.push(id);
  }
  records.sort(function (a, b) { return a.key - b.key; });
  return { records: records, ended: ended };
}

async function ack(message) {
  var tx = (await db()).transaction('records', 'readwrite');
  message.keys.forEach(function (key) { tx.objectStore('records').delete(key); });
  await done(tx);
  return {};
}

/** Forgets a session whose records were all taken; its files go unless another kept session uses them. */
async function remove(message) {
  var left = await request((await db()).transaction('records').objectStore('records').index('bySession').count(message.sessionId));
  if (left > 0) throw new Error('This course has results not yet handed over');
  var sessions = await allSessions();
  var gone = sessions.find(function (s) { return s.sessionId === message.sessionId; });
  if (!gone) return {};
  var kept = new Set(sessions.filter(function (s) { return s !== gone; }).flatMap(function (s) { return s.files || []; }));
  var cache = await caches.open(FILES);
  await Promise.all((gone.files || []).filter(function (key) { return !kept.has(key); }).map(function (key) { return cache.delete(key); }));
  var tx = (await db()).transaction('sessions', 'readwrite');
  tx.objectStore('sessions').delete(message.sessionId);
  await done(tx);
  return {};
}

var OPS = { download: download, take: take, ack: ack, remove: remove };

window.addEventListener('message', function (event) {
  if (event.origin !== consoleOrigin || !event.data || !OPS[event.data.op]) return;
  var id = event.data.id;
  var reply = function (body) { event.source.postMessage(Object.assign({ id: id }, body), consoleOrigin); };
  OPS[event.data.op](event.data, reply).then(
    function (result) { reply({ result: result }); },
    function (error) { reply({ error: String(error && error.message || error) }); }
  );
});
worker().then(function () { window.parent.postMessage({ ready: true }, consoleOrigin); });
`

/** The host's page: no script inline; the console's origin, the only one it answers, in an attribute. */
export const hostPage = (consoleOrigin: string) => `<!doctype html>
<html lang="en" data-console="${consoleOrigin}">
<head><meta charset="utf-8"><title>Seaworthy offline courses</title><script src="/offline/host.js" defer></script></head>
<body></body>
</html>
`
