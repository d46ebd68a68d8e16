// Play with friends (issue 15): the transport, and nothing else. A classic script that the
// friends mode loads on first use (single-player pages never load it); it loads the vendored
// PeerJS bundle (static/vendor/peerjs/) and qrcode-generator (static/vendor/qrcode/) the
// same lazy way, so a page that never plays with friends fetches none of them.
//
// window.sxmjNet, callable from Python with plain strings and callbacks:
//  - host(roomId, opts): a Peer whose id is roomId; every guest that connects is a peer.
//  - join(roomId, opts): an anonymous Peer that connects to roomId (the host).
//    opts: {broker, ice, onOpen(id), onPeer(peerId), onMessage(peerId, text),
//           onClose(peerId), onError(kind, detail), onStatus(state)}; every key optional.
//    broker: "http://HOST:PORT/PATH" (a self-hosted PeerServer) or "" (PeerJS's public one);
//    ice: "none" (no STUN/TURN: host candidates only, as in the tests) or "" (PeerJS's);
//    iceServers: the servers themselves as JSON (sxmj/room/ice.py: a preset's, or a list of
//    the host's own with minted TURN logins), which win over ice; "" for none given.
//    onStatus: "connecting" | "open" | "reconnecting" | "closed".
//  - send(peerId, text) → true if handed to the channel; broadcast(text) → how many peers;
//    peers() → the ids of the open connections; close(): ends everything, no callback after.
//  - qrSvg(text) → Promise of an SVG string (the invite's QR code, made here).
//  - path(peerId) → Promise of "direct" | "relay" | "none": the route of that connection,
//    from its RTCPeerConnection's getStats() (the selected candidate pair: a relay candidate
//    on either end is a TURN relay; none succeeded, or no connection, is "none").
//  - drop(peerId): closes that connection (no onClose for it): the host's page cuts a peer
//    that went past the room's limits (sxmj/room/limits.py).
// The route with no broker (connection codes: sxmj/room/codes.py packs and checks them; this
// only makes and takes the browsers' session descriptions, every candidate gathered first):
//  - offer(servers, ice) → Promise of {id, sdp}: the host's page (after host()), a new
//    RTCPeerConnection for one friend, whatever the broker does; its data channel
//    becomes a connection like any other (peer id = id) once accept() gets its answer.
//  - accept(id, sdp) → Promise of true (false: no such offer waits any more).
//  - cancel(id): the offer id is withdrawn (its RTCPeerConnection closed).
//  - answer(roomId, sdp, opts) → Promise of the answer's sdp: a guest's page, to the host's
//    offer; its channel to the host (peer id = roomId) opens once the host has accepted.
//    It is never tried again (only a new code connects again): a channel that closes, or
//    never opens, ends with onStatus "closed" (onError "codes-failed" if it never opened).
// Messages are strings (JSON in practice) on a reliable data channel with PeerJS's "raw"
// serialization; one longer than MAX_BYTES is dropped with a console.warn (and onError
// "oversize"), whichever side it is on, and never handed on. Non-string data is dropped too.
// Each connection may send WIRE_BURST messages at once and WIRE_RATE a second after that
// (= sxmj.room.limits WIRE_BURST and WIRE_RATE, a test holds them equal): past that it is
// closed before Python sees another message, with onError "flood" (a console.warn once).
// The broker (PeerServer) only introduces the browsers: it sees peer ids and the connection
// set-up (SDP offers/answers and ICE candidates), never a message.
(function () {
  "use strict";
  // = sxmj.room.protocol.MAX_HOST_BYTES (a test holds them equal), under Chromium's own
  // limit for one data-channel message (256 KiB): a 99-hand match's record (packed, about
  // 0.2 kB a hand) fits, and a peer that sends past the cap anyway is still heard, and dropped
  var MAX_BYTES = 192 * 1024;
  // a whole connection's messages: far above honest play, the fair deal's bursts included
  var WIRE_BURST = 300;
  var WIRE_RATE = 40;
  var OPEN_TIMEOUT_MS = 15000;  // a data channel not open by then is tried again
  var BACKOFF_MS = [500, 1000, 2000, 4000, 8000];  // then 8 s between tries, until close()
  var HOST_ID_TRIES = 12;
  var GATHER_MS = 6000;  // a code waits this long at most for its candidates (then: those found)
  // a code's servers when the page names none (PeerJS's own default STUN server)
  var DEFAULT_ICE = [{ urls: "stun:stun.l.google.com:19302" }];  // a reloaded host waits this many tries for the broker to free its id
  // PeerJS errors that trying again cannot mend
  var FATAL = ["browser-incompatible", "invalid-id", "invalid-key", "ssl-unavailable"];
  var here = (document.currentScript && document.currentScript.src) || location.href;
  var loading = {};  // url → Promise, each script fetched once
  var session = null;

  function vendorUrl(file) {
    return new URL("../vendor/" + file, here).href;
  }

  function loadScript(file) {
    var url = vendorUrl(file);
    if (!loading[url]) {
      loading[url] = new Promise(function (resolve, reject) {
        var s = document.createElement("script");
        s.src = url;
        s.onload = function () { resolve(); };
        s.onerror = function () {
          delete loading[url];
          reject(new Error("could not load " + url));
        };
        document.head.appendChild(s);
      });
    }
    return loading[url];
  }

  // "?broker=", "?ice=" and the ICE servers the page chose (sxmj/room/ice.py: a JSON list as
  // RTCConfiguration.iceServers takes it; "" for PeerJS's own) → PeerJS options (also used by
  // the tests)
  function peerOptions(broker, ice, servers) {
    var opts = { debug: 0 };  // PeerJS logs nothing; errors reach onError
    if (broker) {
      var u = new URL(broker);
      var secure = u.protocol === "https:" || u.protocol === "wss:";
      opts.host = u.hostname;
      opts.port = Number(u.port) || (secure ? 443 : 80);
      opts.path = u.pathname || "/";
      opts.secure = secure;
    }
    if (servers) opts.config = { iceServers: JSON.parse(servers) };
    else if (ice === "none") opts.config = { iceServers: [] };
    return opts;
  }

  // Python may hand a dict (a PyProxy) instead of a JS object
  function plain(opts) {
    if (opts && typeof opts.toJs === "function") {
      return opts.toJs({ dict_converter: Object.fromEntries });
    }
    return opts || {};
  }

  function byteLength(text) {
    return text.length * 3 <= MAX_BYTES ? text.length : new TextEncoder().encode(text).length;
  }

  function backoff(tries) {
    return BACKOFF_MS[Math.min(tries, BACKOFF_MS.length - 1)];
  }

  function Session(role, roomId, opts) {
    this.role = role;
    this.roomId = roomId;
    this.opts = plain(opts);
    this.peer = null;
    this.conns = new Map();  // peerId → DataConnection (open or opening)
    this.timers = new Set();
    this.tries = 0;
    this.idTaken = 0;
    this.giveUp = false;
    this.closed = false;
    this.state = "";
    this.codes = false;  // a guest joined by a connection code: no broker, no retry
    this.offers = new Map();  // a host's offers waiting for their answer: id → connection
  }

  Session.prototype.call = function (name) {
    var fn = this.opts[name];
    if (this.closed && name !== "onStatus" || typeof fn !== "function") return;
    try {
      fn.apply(null, Array.prototype.slice.call(arguments, 1));
    } catch (err) {
      console.warn("sxmjNet: " + name + " threw", err);
    }
  };

  Session.prototype.status = function (state) {
    if (state === this.state) return;
    this.state = state;
    this.call("onStatus", state);
  };

  Session.prototype.later = function (ms, fn) {
    var self = this;
    var t = setTimeout(function () {
      self.timers.delete(t);
      if (!self.closed) fn();
    }, ms);
    this.timers.add(t);
  };

  Session.prototype.start = function () {
    var self = this;
    this.status("connecting");
    loadScript("peerjs/peerjs.min.js").then(function () {
      if (!self.closed) self.makePeer();
    }, function (err) {
      self.call("onError", "script-load", String(err.message || err));
      self.lose();
    });
  };

  Session.prototype.makePeer = function () {
    var self = this;
    var options = peerOptions(this.opts.broker || "", this.opts.ice || "",
                              this.opts.iceServers || "");
    var peer = this.role === "host"
      ? new window.peerjs.Peer(this.roomId, options)
      : new window.peerjs.Peer(options);
    this.peer = peer;
    peer.on("open", function (id) {
      if (self.peer !== peer) return;
      self.tries = 0;
      self.idTaken = 0;
      self.call("onOpen", id);
      if (self.role === "host") self.status("open");
      else if (!self.conns.size) self.connect();
    });
    peer.on("connection", function (conn) {
      if (self.peer === peer) self.adopt(conn);
    });
    peer.on("disconnected", function () {
      // the broker dropped: open channels keep working; new ones need the broker again
      if (self.peer !== peer || self.closed || peer.destroyed) return;
      if (self.role === "host") self.status("reconnecting");
      self.later(backoff(self.tries++), function () {
        if (self.peer === peer && peer.disconnected && !peer.destroyed) peer.reconnect();
      });
    });
    peer.on("error", function (err) {
      if (self.peer !== peer) return;
      var kind = err && err.type || "error";
      self.call("onError", kind, String(err && err.message || err));
      if (FATAL.indexOf(kind) >= 0) self.giveUp = true;
      // a reloaded host: the broker may not have dropped the old page's socket yet
      if (kind === "unavailable-id" && ++self.idTaken > HOST_ID_TRIES) self.giveUp = true;
      // the host is not (or no longer) there: it may come back
      if (kind === "peer-unavailable" && self.role === "guest") self.retry();
      // other errors on the broker's socket: PeerJS disconnects ("disconnected" above), or
      // destroys a peer that never opened ("close" below)
    });
    peer.on("close", function () {
      if (self.peer !== peer || self.closed) return;
      if (self.giveUp) {
        self.lose();
        return;
      }
      self.status("reconnecting");
      self.later(backoff(self.tries++), function () { self.makePeer(); });
    });
  };

  // a guest opens its channel to the host
  Session.prototype.connect = function () {
    if (this.closed || !this.peer || this.peer.destroyed) return;
    if (this.peer.disconnected) {
      this.peer.reconnect();  // "open" comes back here
      return;
    }
    var conn = this.peer.connect(this.roomId, { reliable: true, serialization: "raw" });
    if (conn) this.adopt(conn);
    else this.retry();
  };

  // the broker is given up: its peer goes, and the connections made by codes stay
  Session.prototype.lose = function () {
    var peer = this.peer;
    this.peer = null;
    if (peer && !peer.destroyed) peer.destroy();
    if (!this.conns.size) this.status("closed");
  };

  Session.prototype.retry = function () {
    var self = this;
    if (this.role !== "guest" || this.closed) return;
    if (this.codes) {  // only a new code connects again
      this.status("closed");
      return;
    }
    var conns = Array.from(this.conns.values());
    this.conns.clear();  // first: a closing channel must not call back here
    conns.forEach(function (conn) { conn.close(); });
    this.status("reconnecting");
    this.later(backoff(this.tries++), function () {
      if (!self.conns.size) self.connect();
    });
  };

  Session.prototype.adopt = function (conn) {
    var self = this;
    var peerId = conn.peer;
    var old = this.conns.get(peerId);
    this.conns.set(peerId, conn);
    if (old && old !== conn) old.close();  // the same peer again (a new channel): keep the new
    var opened = false;
    var tokens = WIRE_BURST, refilled = performance.now();
    if (!conn.byCode) this.later(OPEN_TIMEOUT_MS, function () {
      if (opened || self.conns.get(peerId) !== conn) return;
      self.call("onError", "timeout", peerId);
      self.conns.delete(peerId);
      conn.close();
      self.retry();
    });
    conn.on("open", function () {
      if (self.closed || self.conns.get(peerId) !== conn) return;
      opened = true;
      self.tries = 0;
      self.status("open");
      self.call("onPeer", peerId);
    });
    conn.on("data", function (data) {
      if (self.closed || self.conns.get(peerId) !== conn) return;
      var now = performance.now();
      tokens = Math.min(WIRE_BURST, tokens + (now - refilled) / 1000 * WIRE_RATE);
      refilled = now;
      if (tokens < 1) {
        console.warn("sxmjNet: " + peerId + " sent too many messages: closed");
        self.conns.delete(peerId);  // first: its close calls nothing back
        conn.close();
        self.call("onError", "flood", peerId);
        if (opened) self.call("onClose", peerId);
        return;
      }
      tokens -= 1;
      if (typeof data !== "string") {
        console.warn("sxmjNet: dropped a non-text message from " + peerId);
        self.call("onError", "not-text", peerId);
        return;
      }
      var size = byteLength(data);
      if (size > MAX_BYTES) {
        console.warn("sxmjNet: dropped a message of " + size + " bytes from " + peerId +
          " (the cap is " + MAX_BYTES + ")");
        self.call("onError", "oversize", peerId + " " + size);
        return;
      }
      self.call("onMessage", peerId, data);
    });
    conn.on("close", function () {
      if (self.conns.get(peerId) !== conn) return;  // replaced, or closed by us
      self.conns.delete(peerId);
      if (self.closed) return;
      if (opened) self.call("onClose", peerId);
      else if (conn.byCode) self.call("onError", "codes-failed", peerId);
      if (self.role === "guest") self.retry();
    });
    conn.on("error", function (err) {
      if (self.conns.get(peerId) !== conn) return;
      self.call("onError", err && err.type || "connection", String(err && err.message || err));
    });
  };

  Session.prototype.send = function (peerId, text) {
    var conn = this.conns.get(peerId);
    if (!conn || !conn.open) return false;
    if (typeof text !== "string") text = String(text);
    var size = byteLength(text);
    if (size > MAX_BYTES) {
      console.warn("sxmjNet: not sending a message of " + size + " bytes (the cap is " +
        MAX_BYTES + ")");
      return false;
    }
    conn.send(text);
    return true;
  };

  Session.prototype.close = function () {
    if (this.closed) return;
    this.closed = true;
    this.timers.forEach(clearTimeout);
    this.timers.clear();
    var conns = Array.from(this.conns.values()).concat(Array.from(this.offers.values()));
    this.conns.clear();
    this.offers.clear();
    conns.forEach(function (conn) { conn.close(); });
    if (this.peer && !this.peer.destroyed) this.peer.destroy();
    this.status("closed");
  };

  // ---- connection codes: a plain RTCPeerConnection, and its data channel as a connection

  // A data channel that behaves as a PeerJS DataConnection does for adopt(): peer, open,
  // on(event), send, close, peerConnection. Negotiated (id 0) on both sides: nothing but the
  // two codes is needed to open it.
  function CodeConnection(peerId, servers, ice) {
    var config = servers ? JSON.parse(servers) : ice === "none" ? [] : DEFAULT_ICE;
    this.peer = peerId;
    this.byCode = true;
    this.open = false;
    this.ended = false;
    this.handlers = {};
    this.peerConnection = new RTCPeerConnection({ iceServers: config });
    this.channel = this.peerConnection.createDataChannel("sxmj", { negotiated: true, id: 0 });
    var self = this;
    this.channel.onopen = function () {
      self.open = true;
      self.emit("open");
    };
    this.channel.onmessage = function (event) { self.emit("data", event.data); };
    this.channel.onclose = function () { self.close(); };
    this.channel.onerror = function (event) {
      var err = event && event.error;
      self.emit("error", { type: "connection", message: String(err && err.message || err) });
    };
    this.peerConnection.onconnectionstatechange = function () {
      var state = self.peerConnection.connectionState;
      if (state === "failed" || state === "closed") self.close();
    };
  }

  CodeConnection.prototype.on = function (name, fn) { this.handlers[name] = fn; };

  CodeConnection.prototype.emit = function (name, value) {
    var fn = this.handlers[name];
    if (fn) fn(value);
  };

  CodeConnection.prototype.send = function (text) { this.channel.send(text); };

  CodeConnection.prototype.close = function () {
    if (this.ended) return;
    this.ended = true;
    this.open = false;
    try { this.channel.close(); } catch (err) { /* already closed */ }
    try { this.peerConnection.close(); } catch (err) { /* already closed */ }
    this.emit("close");
  };

  // the description with every candidate in it: once gathering is complete, or GATHER_MS on
  // (with the candidates found by then)
  CodeConnection.prototype.described = function () {
    var pc = this.peerConnection;
    return new Promise(function (resolve) {
      var done = function () { resolve(pc.localDescription.sdp); };
      if (pc.iceGatheringState === "complete") return done();
      var timer = setTimeout(done, GATHER_MS);
      pc.addEventListener("icegatheringstatechange", function () {
        if (pc.iceGatheringState === "complete") {
          clearTimeout(timer);
          done();
        }
      });
    });
  };

  function randomId() {
    var bytes = new Uint8Array(9);
    crypto.getRandomValues(bytes);
    return "code-" + Array.from(bytes, function (b) { return b.toString(16).padStart(2, "0"); })
      .join("");
  }

  Session.prototype.offer = function (servers, ice) {
    var self = this;
    var id = randomId();
    var conn = new CodeConnection(id, servers, ice);
    this.offers.set(id, conn);
    var pc = conn.peerConnection;
    return pc.createOffer().then(function (offer) {
      return pc.setLocalDescription(offer);
    }).then(function () {
      return conn.described();
    }).then(function (sdp) {
      if (self.closed || self.offers.get(id) !== conn) throw new Error("closed");
      return { id: id, sdp: sdp };
    });
  };

  Session.prototype.accept = function (id, sdp) {
    var self = this;
    var conn = this.offers.get(id);
    if (!conn) return Promise.resolve(false);
    return conn.peerConnection.setRemoteDescription({ type: "answer", sdp: sdp })
      .then(function () {
        if (self.offers.get(id) !== conn) return false;
        self.offers.delete(id);
        self.adopt(conn);
        if (conn.open) conn.emit("open");  // (opened already: the handler came late)
        return true;
      });
  };

  Session.prototype.answer = function (sdp) {
    var self = this;
    this.codes = true;
    this.status("connecting");
    var conn = new CodeConnection(this.roomId, this.opts.iceServers || "", this.opts.ice || "");
    this.adopt(conn);
    var pc = conn.peerConnection;
    return pc.setRemoteDescription({ type: "offer", sdp: sdp }).then(function () {
      return pc.createAnswer();
    }).then(function (answer) {
      // the guest waits as the DTLS server (passive): the host's page starts the handshake
      // the moment it takes the answer, however long the chat took to carry it
      var passive = answer.sdp.replace(/a=setup:active/g, "a=setup:passive");
      return pc.setLocalDescription({ type: "answer", sdp: passive });
    }).then(function () {
      return conn.described();
    }).then(function (described) {
      if (self.closed) throw new Error("closed");
      return described;
    });
  };

  // The route of an RTCPeerConnection: its selected candidate pair (the transport's, or a
  // succeeded nominated pair where the browser names none), and the two candidates' types.
  function routeOf(pc) {
    if (!pc || typeof pc.getStats !== "function") return Promise.resolve("none");
    return pc.getStats().then(function (report) {
      var pair = null;
      report.forEach(function (s) {
        if (s.type === "transport" && s.selectedCandidatePairId) {
          pair = report.get(s.selectedCandidatePairId) || pair;
        }
      });
      if (!pair) {
        report.forEach(function (s) {
          if (s.type === "candidate-pair" && s.state === "succeeded" && s.nominated) pair = s;
        });
      }
      if (!pair || pair.state !== "succeeded") return "none";
      var local = report.get(pair.localCandidateId) || {};
      var remote = report.get(pair.remoteCandidateId) || {};
      return local.candidateType === "relay" || remote.candidateType === "relay"
        ? "relay" : "direct";
    }, function () { return "none"; });
  }

  // this page's one session from now on (the last one ends)
  function newSession(role, roomId, opts) {
    if (session) session.close();
    session = new Session(role, String(roomId), opts);
    return session;
  }

  function begin(role, roomId, opts) {
    newSession(role, roomId, opts).start();
  }

  // a connection (or an offer) taken out of ``map`` and closed; false if it wasn't there
  function closeFrom(map, id) {
    var conn = map.get(String(id));
    if (!conn) return false;
    map.delete(String(id));
    conn.close();
    return true;
  }

  var net = {
    MAX_BYTES: MAX_BYTES,
    host: function (roomId, opts) { begin("host", roomId, opts); },
    join: function (roomId, opts) { begin("guest", roomId, opts); },
    send: function (peerId, text) { return !!session && session.send(String(peerId), text); },
    drop: function (peerId) { return !!session && closeFrom(session.conns, peerId); },
    broadcast: function (text) {
      if (!session) return 0;
      var sent = 0;
      session.conns.forEach(function (conn, peerId) {
        if (session.send(peerId, text)) sent += 1;
      });
      return sent;
    },
    peers: function () {
      if (!session) return [];
      var open = [];
      session.conns.forEach(function (conn, peerId) { if (conn.open) open.push(peerId); });
      return open;
    },
    path: function (peerId) {
      var conn = session && session.conns.get(String(peerId));
      return routeOf(conn && conn.open ? conn.peerConnection : null);
    },
    id: function () { return session && session.peer && session.peer.id || ""; },
    state: function () { return session ? session.state : "closed"; },
    close: function () {
      if (session) session.close();
      session = null;
    },
    offer: function (servers, ice) {
      if (!session || session.closed) return Promise.reject(new Error("no room"));
      return session.offer(String(servers || ""), String(ice || ""));
    },
    accept: function (id, sdp) {
      return session ? session.accept(String(id), String(sdp)) : Promise.resolve(false);
    },
    cancel: function (id) { return !!session && closeFrom(session.offers, id); },
    answer: function (roomId, sdp, opts) {
      return newSession("guest", roomId, opts).answer(String(sdp));
    },
    options: peerOptions,
    qrSvg: function (text) {
      return loadScript("qrcode/qrcode.js").then(function () {
        var qr = window.qrcode(0, "M");
        window.qrcode.stringToBytes = window.qrcode.stringToBytesFuncs["UTF-8"];
        qr.addData(String(text), "Byte");
        qr.make();
        return qr.createSvgTag({ cellSize: 4, margin: 16, scalable: true });
      });
    },
    // tests only: the PeerJS DataConnection to a peer (to send what send() would refuse)
    _connection: function (peerId) { return session && session.conns.get(peerId) || null; },
  };
  window.sxmjNet = net;
})();
