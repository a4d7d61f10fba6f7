// Peer scanner for `batchpipe bench`: reads JSON lines on stdin, splits them, JSON.parses each and
// counts the values of two fields (level, status). Malformed lines are counted, not fatal.
// Prints {"events", "malformed", "countBy": {...}} so the bench can check it did the same work.
'use strict';
const counts = { level: new Map(), status: new Map() };
let events = 0, malformed = 0, rest = '';

function line(text) {
  if (text.length === 0) return;
  let event;
  try { event = JSON.parse(text); } catch (e) { malformed++; return; }
  if (event === null || typeof event !== 'object') { malformed++; return; }
  events++;
  for (const field of ['level', 'status']) {
    const value = event[field];
    if (value === undefined) continue;
    const key = String(value);
    const m = counts[field];
    m.set(key, (m.get(key) || 0) + 1);
  }
}

process.stdin.setEncoding('utf8');
process.stdin.on('data', chunk => {
  const lines = (rest + chunk).split('\n');
  rest = lines.pop();
  for (const l of lines) line(l);
});
process.stdin.on('end', () => {
  line(rest);
  const countBy = {};
  for (const f of Object.keys(counts)) countBy[f] = Object.fromEntries(counts[f]);
  process.stdout.write(JSON.stringify({ events, malformed, countBy }) + '\n');
});
