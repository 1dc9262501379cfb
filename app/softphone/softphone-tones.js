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

  function context() {
    if (!audio && (window.AudioContext || window.webkitAudioContext)) audio = new (window.AudioContext || window.webkitAudioContext)();
    return audio;
  }

  function play(frequencies, ms) {
    var ctx = context();
    if (!ctx) return;
    var gain = ctx.createGain();
    gain.gain.value = 0.08;
    gain.connect(ctx.destination);
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

  Softphone.ring = function (on) {
    clearInterval(ringTimer);
    ringTimer = null;
    if (on) {
      play([440, 480], 800);
      ringTimer = setInterval(function () {
        play([440, 480], 800);
      }, 3000);
    }
  };
})();
