import type { PhoneSnapshot } from "#contracts/cti";

/**
 * Who hears whom at the asking agent's browser while it calls a consulted colleague (decision
 * 052): each route is on (1) or off (0). The customer's leg and the colleague's leg both end in
 * this browser, so the mix is made here: the customer hears the agent (and, in a conference, the
 * colleague); the colleague hears the agent (and, in a conference, the customer).
 */
export type Mix = {
  micToCustomer: number;
  micToColleague: number;
  customerToColleague: number;
  colleagueToCustomer: number;
  customerToAgent: number;
  colleagueToAgent: number;
};

/**
 * The mix the phone state asks for. Hold keeps its meaning: the customer hears nobody and is
 * heard by nobody (the agents go on talking); mute keeps its meaning: nobody hears the agent's
 * microphone (the customer and colleague still hear each other in a conference).
 */
export function mixOf(phone: PhoneSnapshot): Mix {
  const mic = phone.agent.muted ? 0 : 1;
  const customer = phone.agent.state === "HOLD" ? 0 : 1;
  const conference = phone.call?.consult?.state === "conference" ? customer : 0;
  return {
    micToCustomer: mic * customer,
    micToColleague: mic,
    customerToColleague: conference,
    colleagueToCustomer: conference,
    customerToAgent: customer,
    colleagueToAgent: 1,
  };
}

const audioSender = (connection: RTCPeerConnection | undefined) =>
  connection?.getSenders().find((sender) => sender.track?.kind === "audio");
const remoteTrack = (connection: RTCPeerConnection | undefined) =>
  connection?.getReceivers().find((receiver) => receiver.track.kind === "audio")?.track;

/**
 * The mix in WebAudio: the microphone, the customer and the colleague go through a gain per route
 * into what each leg sends and what the agent hears (`audio`), in place of the tracks the calls
 * had; `close` puts those back. Without a customer's leg (it never connected) only the colleague
 * is mixed.
 */
export function createCallMix(customer: RTCPeerConnection | undefined, colleague: RTCPeerConnection, audio: HTMLAudioElement) {
  const context = new AudioContext();
  void context.resume();
  const customerSender = audioSender(customer);
  const colleagueSender = audioSender(colleague);
  const mic = customerSender?.track ?? colleagueSender?.track ?? null;
  const remote = [remoteTrack(customer), remoteTrack(colleague)];
  const inputs = [mic, ...remote];
  const [fromMic, fromCustomer, fromColleague] = inputs.map((track) =>
    track ? context.createMediaStreamSource(new MediaStream([track])) : null,
  );
  // Chrome gives WebAudio a remote track's audio only while a media element plays it (silence
  // otherwise): a muted element does.
  const players = remote.flatMap((track) => {
    if (!track) return [];
    const player = new Audio();
    player.muted = true;
    player.srcObject = new MediaStream([track]);
    void player.play().catch(() => undefined);
    return [player];
  });
  const [toCustomer, toColleague, toAgent] = [0, 1, 2].map(() => context.createMediaStreamDestination());
  const routes = new Map<keyof Mix, GainNode>();
  const route = (name: keyof Mix, from: AudioNode | null, to: AudioNode) => {
    const gain = context.createGain();
    gain.gain.value = 0;
    from?.connect(gain).connect(to);
    routes.set(name, gain);
  };
  route("micToCustomer", fromMic, toCustomer);
  route("colleagueToCustomer", fromColleague, toCustomer);
  route("micToColleague", fromMic, toColleague);
  route("customerToColleague", fromCustomer, toColleague);
  route("customerToAgent", fromCustomer, toAgent);
  route("colleagueToAgent", fromColleague, toAgent);
  // A leg that has just ended refuses a new track: nothing to send there any more.
  const send = (sender: RTCRtpSender | undefined, track: MediaStreamTrack | null) => sender?.replaceTrack(track).catch(() => undefined);
  void send(customerSender, toCustomer.stream.getAudioTracks()[0]);
  void send(colleagueSender, toColleague.stream.getAudioTracks()[0]);
  const heard = audio.srcObject;
  audio.srcObject = toAgent.stream;
  void audio.play().catch(() => undefined);

  return {
    /** Sets every route as `mix` says; hold and mute act on the routes only (the tracks stay on). */
    follow(mix: Mix) {
      for (const track of inputs) if (track) track.enabled = true;
      for (const [name, gain] of routes) gain.gain.value = mix[name];
    },
    /** The consultation is over: the customer's leg sends the microphone again and is heard directly. */
    close() {
      if (mic) void send(customerSender, mic);
      audio.srcObject = heard;
      void audio.play().catch(() => undefined);
      for (const player of players) player.srcObject = null;
      void context.close();
    },
  };
}

export type CallMix = ReturnType<typeof createCallMix>;
