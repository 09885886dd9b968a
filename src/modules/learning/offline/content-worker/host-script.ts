import { CONTENT_DB_SCRIPT } from './content-db.js'

/**
 * The download host (DECISIONS §16): a page of the content origin that the console frames, hidden, and
 * talks to by postMessage, answering only the console's origin. It installs the content origin's
 * service worker, downloads a session's files into Cache Storage (checking each one's SHA-256; files
 * already kept are skipped, and a file cut off continues from its bytes held), keeps what the console
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

// A file being downloaded is kept in parts as it arrives (Cache Storage, this origin's), with the ETag it came with:
// a cut download asks for the rest (Range and If-Range) and starts over only when the file changed.
var PARTS = 'seaworthy-offline-parts';
var PART_BYTES = 1048576;
function partKey(key, part) { return key + '?part=' + part; }
async function heldOf(parts, key) {
  var meta = await parts.match(partKey(key, 'meta'));
  return meta ? meta.json() : { etag: null, type: null, sizes: [] };
}
async function dropParts(parts, key, held) {
  await Promise.all(held.sizes.map(function (_, n) { return parts.delete(partKey(key, n)); }).concat([parts.delete(partKey(key, 'meta'))]));
}
/** Keeps the bytes received as the next part, then the record of the parts held (a part kept without it is overwritten). */
async function keepPart(parts, key, held, chunks) {
  var blob = new Blob(chunks);
  if (blob.size === 0) return;
  await parts.put(partKey(key, held.sizes.length), new Response(blob));
  held.sizes.push(blob.size);
  await parts.put(partKey(key, 'meta'), new Response(JSON.stringify(held)));
}
function sum(sizes) { return sizes.reduce(function (n, s) { return n + s; }, 0); }

/** The response for the rest of the file (a 206 from the bytes held), or the whole file (200: the parts held go). */
async function fetchRest(parts, key, file, held, progress) {
  var have = sum(held.sizes);
  var headers = have > 0 && held.etag ? { range: 'bytes=' + have + '-', 'if-range': held.etag } : {};
  headers['x-offline-download'] = '1';
  var response = await fetch(file.url, { cache: 'no-store', headers: headers });
  var resumed = response.status === 206 && (response.headers.get('content-range') || '').indexOf('bytes ' + have + '-') === 0;
  if (!response.ok || (response.status === 206 && !resumed))
    throw new Error('The service answered ' + response.status + ' for ' + new URL(file.url).pathname);
  if (!resumed && have > 0) {
    await dropParts(parts, key, held);
    progress(-have);
    held.sizes = [];
  }
  held.etag = response.headers.get('etag');
  held.type = held.type && resumed ? held.type : response.headers.get('content-type') || 'application/octet-stream';
  return response;
}

async function downloadFile(cache, file, progress) {
  var key = fileKey(new URL(file.url));
  var parts = await caches.open(PARTS);
  var held = await heldOf(parts, key);
  progress(sum(held.sizes));
  var reader = (await fetchRest(parts, key, file, held, progress)).body.getReader();
  // Parts are written while reading goes on: a stream that breaks drops what it had queued and not yet been read.
  var writing = Promise.resolve();
  var chunks = [];
  var size = 0;
  for (;;) {
    var next = await reader.read().catch(async function (error) {
      // The link dropped: what arrived is kept, and Continue asks for the rest.
      await writing;
      await keepPart(parts, key, held, chunks);
      throw error;
    });
    if (next.done) break;
    chunks.push(next.value);
    size += next.value.length;
    progress(next.value.length);
    if (size >= PART_BYTES) {
      writing = writing.then(keepPart.bind(null, parts, key, held, chunks));
      chunks = [];
      size = 0;
    }
  }
  await writing;
  await keepPart(parts, key, held, chunks);
  var whole = new Blob(await Promise.all(held.sizes.map(async function (_, n) { return (await parts.match(partKey(key, n))).blob(); })));
  // The one moment the whole file is in memory: WebCrypto digests a buffer, not a stream.
  var digest = hex(await crypto.subtle.digest('SHA-256', await whole.arrayBuffer()));
  if (digest !== file.sha256) {
    await dropParts(parts, key, held);
    throw new Error('A downloaded file did not match its digest: ' + new URL(file.url).pathname);
  }
  await cache.put(key, new Response(whole, { headers: { 'content-type': held.type } }));
  await dropParts(parts, key, held);
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

/**
 * Forgets a session whose records were all taken; its files, whole or in parts, go unless another kept session uses
 * them. A download cut before it finished has no session here yet: the console names its files.
 */
async function remove(message) {
  var left = await request((await db()).transaction('records').objectStore('records').index('bySession').count(message.sessionId));
  if (left > 0) throw new Error('This course has results not yet handed over');
  var sessions = await allSessions();
  var gone = sessions.find(function (s) { return s.sessionId === message.sessionId; });
  var keys = gone ? gone.files || [] : (message.files || []).map(function (f) { return fileKey(new URL(f.url)); });
  var kept = new Set(sessions.filter(function (s) { return s !== gone; }).flatMap(function (s) { return s.files || []; }));
  var cache = await caches.open(FILES);
  var parts = await caches.open(PARTS);
  await Promise.all(keys.filter(function (key) { return !kept.has(key); }).map(async function (key) {
    await cache.delete(key);
    await dropParts(parts, key, await heldOf(parts, key));
  }));
  if (!gone) return {};
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
