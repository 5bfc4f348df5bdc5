/**
 * Sound is optional and off by default (the header's « Son » switch, kept in localStorage). A
 * win above the stake plays a short rising arpeggio made by the browser (Web Audio): no file to
 * load, longer for a bigger win.
 */
const SOUND_KEY = 'instant-games.sound';

export const soundSetting = {
  get: (): boolean => localStorage.getItem(SOUND_KEY) === 'on',
  set: (on: boolean): void => localStorage.setItem(SOUND_KEY, on ? 'on' : 'off'),
};

let audio: AudioContext | undefined;

/** `ratio`: prize ÷ stake. */
export function playWin(ratio: number): void {
  audio ??= new AudioContext();
  const notes = ratio >= 20 ? [523, 659, 784, 1047, 1319] : ratio >= 5 ? [523, 659, 784, 1047] : [523, 784];
  notes.forEach((hz, i) => {
    const at = audio!.currentTime + i * 0.09;
    const osc = audio!.createOscillator();
    const gain = audio!.createGain();
    osc.frequency.value = hz;
    gain.gain.setValueAtTime(0.12, at);
    gain.gain.exponentialRampToValueAtTime(0.001, at + 0.25);
    osc.connect(gain).connect(audio!.destination);
    osc.start(at);
    osc.stop(at + 0.25);
  });
}
