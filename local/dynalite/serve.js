// Starts dynalite (DynamoDB emulator) for Batchpipe's local stack and prints one line,
// "dynalite listening on <port>", once it accepts connections.
//
// It never outlives the JVM that started it: that JVM holds our stdin open, and when it ends
// (normal exit, Ctrl-C, or a crash that runs no shutdown hook at all) the pipe closes and we exit.
'use strict';
const dynalite = require('dynalite');

const args = process.argv.slice(2);
const portIndex = args.indexOf('--port');
const port = portIndex >= 0 ? Number(args[portIndex + 1]) : 0;
const host = '127.0.0.1';

// dynalite rethrows the error of a request stream (index.js: req.on('error', function (err) { throw err })),
// so a client that drops its connection in the middle of a request (a Lambda instance timed out or killed
// mid-call, which the chaos demo does on purpose) killed the emulator, and every later call of the run
// failed with "Connection refused". DynamoDB shrugs such a client off; so do we. Anything else still ends
// the process, loudly.
process.on('uncaughtException', (err) => {
  if (err && (err.code === 'ECONNRESET' || err.code === 'ECONNABORTED' || err.message === 'aborted')) {
    console.error(`dynalite: a client dropped a request mid-way (${err.message}); ignored`);
    return;
  }
  console.error(err && err.stack ? err.stack : err);
  process.exit(1);
});

// Tables become ACTIVE at once: the emulator's default half-second delays only slow tests down.
const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });

server.on('error', (err) => {
  console.error(`dynalite could not listen on ${host}:${port}: ${err.message}`);
  process.exit(1);
});

server.listen(port, host, () => {
  console.log(`dynalite listening on ${server.address().port}`);
});

function stop() {
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 500).unref();
}

process.stdin.on('end', stop);
process.stdin.on('error', stop);
process.stdin.resume();
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
