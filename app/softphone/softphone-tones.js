/*
 * Switchboard softphone SDK: local tones. A ring while a call is offered, and the DTMF pair of
 * each key pressed on the keypad (ITU-T Q.23), played in the agent's browser with Web Audio.
 */
(function () {
  var Softphone = (window.Softphone = window.Softphone || {});
  var LOW = { 1: 697, 2: 697, 3: 697, 4: 770, 5: 770, 6: 770, 7: 852, 8: 852, 9: 852, "*": 941, 0: 941, "#": 941 };
  var HIGH = { 1: 1209, 2: 1336, 3: 1477, 4: 1209, 5: 1336, 6: 1477, 7: 1209, 8: 1336, 9: 1477, "*": 1209, 0: 1336, "#": 1477 };
  var audio = null;
  var ringTimer = null;
  /** The media element the ring plays through (so the page can send it to a device of its own), once given. */
  var ringElement = null;
  var ringOutput = null;

  function context() {
    if (!audio && (window.AudioContext || window.webkitAudioContext)) audio = new (window.AudioContext || window.webkitAudioContext)();
    return audio;
  }

  function play(frequencies, ms, output) {
    var ctx = context();
    if (!ctx) return;
    var gain = ctx.createGain();
    gain.gain.value = 0.08;
    gain.connect(output || ctx.destination);
    frequencies.forEach(function (hz) {
      var osc = ctx.createOscillator();
      osc.frequency.value = hz;
      osc.connect(gain);
      osc.start();
      osc.stop(ctx.currentTime + ms / 1000);
    });
  }

  Softphone.tone = function (digit) {
    if (LOW[digit]) play([LOW[digit], HIGH[digit]], 120);
  };

  /**
   * Browsers keep a page silent until the user acts on it: called in a click (the sign-in), this
   * lets the first call of the day ring. A silent sample played now starts the audio for good.
   */
  Softphone.unlock = function () {
    var ctx = context();
    if (!ctx) return;
    if (ctx.resume) ctx.resume();
    var source = ctx.createBufferSource();
    source.buffer = ctx.createBuffer(1, 1, ctx.sampleRate);
    source.connect(ctx.destination);
    source.start();
  };

  /** The ring plays through this media element from now on (its output device is the page's to choose). */
  Softphone.ringer = function (element) {
    var ctx = context();
    if (!ctx || !element || !ctx.createMediaStreamDestination) return;
    ringOutput = ctx.createMediaStreamDestination();
    ringElement = element;
    ringElement.srcObject = ringOutput.stream;
  };

  Softphone.ring = function (on) {
    clearInterval(ringTimer);
    ringTimer = null;
    if (ringElement) {
      if (on) ringElement.play().catch(function () {});
      else ringElement.pause();
    }
    if (on) {
      play([440, 480], 800, ringOutput);
      ringTimer = setInterval(function () {
        play([440, 480], 800, ringOutput);
      }, 3000);
    }
  };
})();
