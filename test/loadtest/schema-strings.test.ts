import { strict as assert } from 'node:assert';
import { ArraySchema, Decoder, Encoder, Schema, decode, encode, type } from '@colyseus/schema';
import { readString } from '../../loadtest/schema-strings';

class Steps extends Schema {
  @type(['string']) steps = new ArraySchema<string>();
}

describe('the harness\'s schema strings', () => {
  it('is what the schema decodes its strings with in the harness', () => {
    assert.equal(decode.string, readString);
  });

  it('reads every string the schema writes, of every length and alphabet, and moves past it', () => {
    const texts = ['', 'a', 'x'.repeat(15), 'x'.repeat(16), 'y'.repeat(31), 'z'.repeat(32), 'é'.repeat(8), 'é'.repeat(200),
      '{"seq":3,"by":"player","events":[{"type":"reveal","symbol":"💎"}]}', 'w'.repeat(255), 'v'.repeat(256), 'u'.repeat(70_000)];
    for (const text of texts) {
      const bytes = new Uint8Array(Buffer.byteLength(text) + 16);
      const written = { offset: 3 };
      encode.string(bytes, text, written);
      const read = { offset: 3 };
      assert.equal(readString(bytes, read), text, `a string of ${text.length} characters`);
      assert.equal(read.offset, written.offset, `the offset after a string of ${text.length} characters`);
    }
  });

  it('reads a state\'s steps through a decoder as they were set', () => {
    const state = new Steps();
    const steps = ['{"seq":0,"by":"purchase","events":[]}', `{"seq":1,"by":"player","events":[{"type":"rub","lamp":"génie ✨"}]}`];
    state.steps.push(...steps);
    const decoded = new Steps();
    new Decoder(decoded).decode(new Encoder(state).encodeAll());
    assert.deepEqual([...decoded.steps], steps);
  });
});
