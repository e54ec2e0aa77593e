import { describe, expect, it } from 'vitest';
import { RingBuffer } from './ringBuffer';

describe('RingBuffer', () => {
  it('keeps the last `capacity` items in order, wrapping around many times', () => {
    const r = new RingBuffer<number>(3);
    expect(r.toArray()).toEqual([]);
    r.push(1);
    r.push(2);
    expect(r.toArray()).toEqual([1, 2]);
    for (let i = 3; i <= 1000; i++) r.push(i);
    expect(r.toArray()).toEqual([998, 999, 1000]);
    expect(r.tail(2)).toEqual([999, 1000]);
    expect(r.tail(0)).toEqual([]);
    r.clear();
    expect(r.toArray()).toEqual([]);
    r.push(7);
    expect(r.toArray()).toEqual([7]);
  });
});
