// A local PeerServer (the npm `peer` package): the broker of the friends-mode tests, and a
// way to self-host one (docs/friends.md "Self-hosting the broker"):
//   node scripts/peer_broker.mjs [HOST] [PORT] [PATH]     (127.0.0.1, 0 = a free port, /sxmj-broker)
// Prints one JSON line once listening: {"url": "http://HOST:PORT/PATH", "host", "port", "path"};
// then one JSON line per broker event on stderr: connect/disconnect of a peer id, and each
// signalling message's type, src and dst (never its payload). The broker only ever carries
// the connection set-up (OPEN, OFFER, ANSWER, CANDIDATE, LEAVE, EXPIRE, HEARTBEAT).
import { PeerServer } from "peer";

const [host = "127.0.0.1", port = "0", path = "/sxmj-broker"] = process.argv.slice(2);
const log = (event) => process.stderr.write(JSON.stringify({ t: Date.now(), ...event }) + "\n");

const server = PeerServer({ host, port: Number(port), path, expire_timeout: 5000 }, (http) => {
  const a = http.address();
  const url = `http://${a.address.includes(":") ? `[${a.address}]` : a.address}:${a.port}${path}`;
  process.stdout.write(JSON.stringify({ url, host: a.address, port: a.port, path }) + "\n");
  const stop = () => http.close(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
});
server.on("connection", (client) => log({ event: "connect", id: client.getId() }));
server.on("disconnect", (client) => log({ event: "disconnect", id: client.getId() }));
server.on("message", (client, m) => log({ event: "message", type: m.type, src: m.src, dst: m.dst }));
server.on("error", (err) => log({ event: "error", error: String(err) }));
