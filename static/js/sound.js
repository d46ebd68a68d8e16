// The table's sound and turn cues (issue 18): a classic script of index.html, before PyScript.
// Which cues a move means is decided in Python (sxmj/ui/sound.py, pure and unit-tested); this
// file only makes them heard and seen. It owns window.sxmjAudio:
//  - log: [{cue, t}], one entry per cue fired (the testing contract): draw, discard, claim,
//    kong, flower, win, drawn-hand, tick, turn, first-win, speech:<word>; it fires whether or not the
//    device can play sound. A muted cue is never handed over, so it is never logged;
//  - play(planJson): {cues: [{cue, word?, lang?, fan?}], title, vibrate} (sxmj.ui.sound.Plan);
//  - configure(json): {on, volume} — the Settings' sound switch and volume (percent);
//  - context: the AudioContext, created on the first user gesture (pointerdown, keydown,
//    touchend, mousedown) and not before, as browsers require; unlocked: that gesture came;
//    played: how many cues were synthesised or spoken (0 when there is no Web Audio).
// Nothing is played, spoken or vibrated before the first gesture; the cues fired meanwhile are
// logged all the same (the device can't play them yet, as for a device with no sound at all,
// and the log is every cue fired unless muted). Every sound is made
// here with the Web Audio API (no audio file), with slight random variation so repeats don't
// grate. Calls are spoken with speechSynthesis in the voice of the table's language (zh-CN,
// or English in English mode); with no such voice a distinct square-wave tone says them.
// The turn cue also vibrates (navigator.vibrate, where supported) and, while the page is
// hidden, sets document.title (「轮到你了」 / "Your turn") until the page is visible again.
(function () {
  "use strict";
  var AC = window.AudioContext || window.webkitAudioContext;
  var GESTURES = ["pointerdown", "keydown", "touchend", "mousedown"];
  var PENTATONIC = [523.25, 587.33, 659.26, 783.99, 880, 1046.5, 1174.66, 1318.51, 1567.98];
  var WORD_PITCH = { chi: 660, peng: 523, gang: 440, hu: 880, buhua: 587, piao: 740 };
  var out = null;      // the master gain (volume), through a compressor to the speakers
  var noiseBuffer = null;
  var cursor = 0;      // when the next cue may start (cues of one move follow each other)
  var savedTitle = null;
  var settings = { on: true, volume: 70 };

  var audio = {
    log: [],
    context: null,
    unlocked: false,
    played: 0,
    configure: function (json) {
      var s = JSON.parse(json);
      settings.on = s.on !== false;
      if (typeof s.volume === "number") settings.volume = Math.max(0, Math.min(100, s.volume));
      if (out) out.gain.setTargetAtTime(gainOf(), audio.context.currentTime, 0.02);
      if (!settings.on && window.speechSynthesis) window.speechSynthesis.cancel();
    },
    play: function (json) {
      var plan = JSON.parse(json);
      if (plan.title) setTitle(plan.title);
      if (audio.unlocked && plan.vibrate && navigator.vibrate) {
        try { navigator.vibrate([35, 40, 35]); } catch (e) { /* unsupported */ }
      }
      (plan.cues || []).forEach(fire);
    }
  };
  window.sxmjAudio = audio;

  function gainOf() {
    return settings.on ? Math.pow(settings.volume / 100, 1.6) : 0;
  }

  // ------------------------------------------------------------------ the first gesture

  function unlock() {
    GESTURES.forEach(function (name) { window.removeEventListener(name, unlock, true); });
    if (audio.unlocked) return;
    audio.unlocked = true;
    if (!AC) return;
    try {
      var ctx = new AC();
      var comp = ctx.createDynamicsCompressor();
      out = ctx.createGain();
      out.gain.value = gainOf();
      out.connect(comp);
      comp.connect(ctx.destination);
      noiseBuffer = ctx.createBuffer(1, Math.floor(ctx.sampleRate * 0.5), ctx.sampleRate);
      var data = noiseBuffer.getChannelData(0);
      for (var i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
      audio.context = ctx;
      if (ctx.state === "suspended") ctx.resume();
    } catch (e) {
      out = null;  // no sound on this device: cues are still logged
    }
  }
  GESTURES.forEach(function (name) {
    window.addEventListener(name, unlock, { capture: true, passive: true });
  });

  // ------------------------------------------------------------------ the title cue

  function setTitle(text) {
    if (document.visibilityState !== "hidden") return;
    if (savedTitle === null) savedTitle = document.title;
    document.title = text;
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "hidden" && savedTitle !== null) {
      document.title = savedTitle;
      savedTitle = null;
    }
  });

  // ------------------------------------------------------------------ firing a cue

  function fire(c) {
    audio.log.push({ cue: c.cue, t: Math.round(performance.now()) });
    if (!audio.unlocked) return;  // fired and logged, but no sound before the first gesture
    try {
      if (c.cue.indexOf("speech:") === 0) {
        if (speak(c)) { audio.played++; return; }
        if (play(function (t) { return wordTone(t, c.cue.slice(7)); })) audio.played++;
        return;
      }
      var make = SOUNDS[c.cue];
      if (make && play(function (t) { return make(t, c); })) audio.played++;
    } catch (e) {
      /* a device that can't play: the cue is logged all the same */
    }
  }

  // make(t) schedules a sound at t and returns how long the next cue should wait
  function play(make) {
    var ctx = audio.context;
    if (!ctx || !out || !settings.on) return false;
    if (ctx.state === "suspended") ctx.resume();
    var t = Math.max(ctx.currentTime + 0.01, cursor);
    if (t > ctx.currentTime + 1.5) t = ctx.currentTime + 0.01;  // never fall far behind
    cursor = t + make(t);
    return true;
  }

  function voiceFor(lang) {
    var voices = window.speechSynthesis.getVoices() || [];
    var want = lang.toLowerCase();
    var norm = function (v) { return String(v.lang || "").replace("_", "-").toLowerCase(); };
    var exact = voices.filter(function (v) { return norm(v) === want; });
    if (exact.length) return exact[0];
    var base = want.split("-")[0];
    var near = voices.filter(function (v) {
      var l = norm(v);
      return l.split("-")[0] === base && !/-(hk|mo)$/.test(l);  // no Cantonese for 普通话
    });
    return near.length ? near[0] : null;
  }

  function speak(c) {
    var synth = window.speechSynthesis;
    if (!synth || !window.SpeechSynthesisUtterance || !c.word || !settings.on) return false;
    var voice = voiceFor(c.lang || "zh-CN");
    if (!voice) return false;
    var u = new SpeechSynthesisUtterance(c.word);
    u.voice = voice;
    u.lang = voice.lang;
    u.volume = Math.min(1, gainOf() * 1.2);
    u.rate = vary(1.05, 0.05);
    u.pitch = vary(1, 0.08);
    if (synth.speaking || synth.pending) synth.cancel();  // the latest call, not a queue
    synth.speak(u);
    return true;
  }

  // ------------------------------------------------------------------ the sounds

  function vary(x, share) { return x * (1 + (Math.random() * 2 - 1) * share); }

  function voice(node, t, attack, peak, decay) {
    var g = audio.context.createGain();
    g.gain.setValueAtTime(0.0001, t);
    g.gain.exponentialRampToValueAtTime(Math.max(peak, 0.0002), t + attack);
    g.gain.exponentialRampToValueAtTime(0.0001, t + attack + decay);
    node.connect(g);
    g.connect(out);
    return t + attack + decay + 0.05;
  }

  function tone(t, freq, type, attack, peak, decay) {
    var o = audio.context.createOscillator();
    o.type = type;
    o.frequency.setValueAtTime(freq, t);
    o.start(t);
    o.stop(voice(o, t, attack, peak, decay));
  }

  function noise(t, freq, q, attack, peak, decay) {
    var ctx = audio.context;
    var src = ctx.createBufferSource();
    src.buffer = noiseBuffer;
    var f = ctx.createBiquadFilter();
    f.type = "bandpass";
    f.frequency.setValueAtTime(freq, t);
    f.Q.value = q;
    src.connect(f);
    src.start(t, Math.random() * 0.3);
    src.stop(voice(f, t, attack, peak, decay));
  }

  // a tile set down on the table: a bright click, the tile's knock, sometimes a bounce
  function clack(t, pitch, peak) {
    noise(t, vary(3400, 0.12), vary(2.5, 0.2), 0.001, peak * 2.4, vary(0.03, 0.2));
    tone(t, vary(pitch, 0.06), "triangle", 0.002, peak * 0.7, vary(0.06, 0.2));
    if (Math.random() < 0.5) noise(t + vary(0.04, 0.3), vary(3000, 0.1), 3, 0.001, peak * 0.6, 0.015);
  }

  function bell(t, freq, peak, decay) {
    tone(t, freq, "sine", 0.004, peak, decay);
    tone(t, freq * 2.76, "sine", 0.002, peak * 0.18, decay * 0.4);
  }

  function wordTone(t, word) {  // no voice: a square-wave call, its pitch the word's
    var f = vary(WORD_PITCH[word] || 600, 0.02);
    tone(t, f, "square", 0.005, 0.09, 0.08);
    tone(t + 0.11, f * (word === "hu" ? 1.5 : 0.84), "square", 0.005, 0.09, 0.12);
    return 0.28;
  }

  var SOUNDS = {
    draw: function (t) {
      noise(t, vary(1700, 0.15), 0.9, vary(0.018, 0.3), vary(0.4, 0.2), vary(0.05, 0.2));
      return 0.06;
    },
    discard: function (t) {
      clack(t, 1150, vary(0.55, 0.15));
      return 0.09;
    },
    claim: function (t) {
      clack(t, 900, vary(0.45, 0.12));
      clack(t + vary(0.085, 0.2), 860, vary(0.42, 0.12));
      return 0.2;
    },
    kong: function (t) {
      for (var i = 0; i < 4; i++) clack(t + i * vary(0.06, 0.15), vary(880, 0.05), vary(0.4, 0.1));
      tone(t + 0.2, vary(110, 0.05), "sine", 0.01, 0.35, 0.3);
      return 0.45;
    },
    flower: function (t) {
      var k = Math.floor(Math.random() * 3);
      bell(t, vary(PENTATONIC[3 + k], 0.01), 0.16, 0.6);
      bell(t + vary(0.09, 0.15), vary(PENTATONIC[5 + k], 0.01), 0.13, 0.7);
      return 0.2;
    },
    win: function (t, c) {  // a flourish: more notes, longer and louder for more 番
      var fan = Math.max(0, Math.min(4, c.fan || 0));
      var n = 4 + fan;
      var step = vary(0.075, 0.1);
      for (var i = 0; i < n; i++) {
        var f = PENTATONIC[Math.min(PENTATONIC.length - 1, i + (fan > 2 ? 1 : 0))];
        bell(t + i * step, vary(f, 0.005), 0.14 + 0.02 * fan, 0.5);
      }
      var end = t + n * step;
      [0, 2, 4].forEach(function (j) {
        bell(end, PENTATONIC[Math.min(PENTATONIC.length - 1, 4 + j)], 0.1 + 0.02 * fan,
             1.0 + 0.3 * fan);
      });
      return n * step + 0.6;
    },
    "drawn-hand": function (t) {
      tone(t, vary(392, 0.01), "triangle", 0.02, 0.22, 0.35);
      tone(t + 0.25, vary(294, 0.01), "triangle", 0.02, 0.2, 0.6);
      return 0.9;
    },
    tick: function (t) {
      noise(t, vary(5500, 0.1), 6, 0.001, 0.6, 0.012);
      tone(t, vary(1900, 0.03), "sine", 0.001, 0.15, 0.02);
      return 0.03;
    },
    turn: function (t) {  // a soft chime
      bell(t, vary(1318.51, 0.015), 0.2, 0.9);
      bell(t + 0.16, vary(987.77, 0.015), 0.17, 1.1);
      return 0.3;
    },
    "first-win": function (t) {  // the player's first win ever: a rising fanfare, about 1 s
      [0, 2, 4, 5].forEach(function (k, i) {
        tone(t + i * 0.11, PENTATONIC[k], "triangle", 0.01, 0.16, 0.22);
      });
      [5, 7, 8].forEach(function (k) {
        bell(t + 0.46, PENTATONIC[k], 0.12, 0.9);
      });
      return 1.0;
    }
  };
})();
