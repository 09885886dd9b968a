/**
 * The content origin's own store of courses taken offline (DECISIONS §16), shared by its service worker
 * and its download host: plain IndexedDB, as script text (both are served as files, no bundler).
 * `sessions`: what a downloaded session needs to play with no link (the console prepared it: its
 * credential, cmi5's documents or SCORM's starting runtime) and its commit counter; `records`: the
 * statements and commits made offline, oldest first, until the console takes them into its queue.
 * Files are kept in Cache Storage under their package version, so a second session of the same
 * version downloads nothing.
 */
export const CONTENT_DB_SCRIPT = `
var DB_NAME = 'seaworthy-offline-content';
var FILES = 'seaworthy-offline-files';
var opened;
function request(r) {
  return new Promise(function (resolve, reject) {
    r.onsuccess = function () { resolve(r.result); };
    r.onerror = function () { reject(r.error); };
  });
}
function done(tx) {
  return new Promise(function (resolve, reject) {
    tx.oncomplete = function () { resolve(); };
    tx.onerror = tx.onabort = function () { reject(tx.error); };
  });
}
function db() {
  opened = opened || new Promise(function (resolve, reject) {
    var open = indexedDB.open(DB_NAME, 1);
    open.onupgradeneeded = function () {
      open.result.createObjectStore('sessions', { keyPath: 'sessionId' });
      open.result.createObjectStore('records', { keyPath: 'key', autoIncrement: true }).createIndex('bySession', 'sessionId');
    };
    open.onsuccess = function () { resolve(open.result); };
    open.onerror = function () { reject(open.error); };
  });
  return opened;
}
async function getSession(id) {
  return request((await db()).transaction('sessions').objectStore('sessions').get(id));
}
async function allSessions() {
  return request((await db()).transaction('sessions').objectStore('sessions').getAll());
}
async function putSession(session) {
  var tx = (await db()).transaction('sessions', 'readwrite');
  tx.objectStore('sessions').put(session);
  return done(tx);
}
/** A session's package version, from its content token (the payload is JSON [org, package, session, expiry]; the signature is the server's business). */
function packageOf(token) {
  try {
    return JSON.parse(atob(token.split('.')[0].replace(/-/g, '+').replace(/_/g, '/')))[1];
  } catch (error) {
    return null;
  }
}
/** Where a package file is kept: by package version and path, whichever session's token asked. */
function fileKey(url) {
  var match = /^\\/content\\/([^/]+)\\/(.+)$/.exec(url.pathname);
  if (match && packageOf(match[1])) return url.origin + '/offline/files/' + packageOf(match[1]) + '/' + match[2];
  if (/^\\/player\\/[^/]+$/.test(url.pathname)) return url.origin + '/offline/files/player';
  return url.origin + url.pathname;
}
`
