// A bounded log per server (stderr and server log messages) for the Logs view and error hints.
// Circular: a push is O(1) however full it is, so a server flooding stderr costs no array shifting.
export class RingBuffer<T> {
  private items: (T | undefined)[];
  private start = 0;
  private size = 0;

  constructor(private readonly capacity: number) {
    this.items = new Array<T | undefined>(capacity);
  }

  push(item: T): void {
    if (this.capacity <= 0) return;
    const end = (this.start + this.size) % this.capacity;
    this.items[end] = item;
    if (this.size < this.capacity) this.size++;
    else this.start = (this.start + 1) % this.capacity;
  }

  toArray(): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.size; i++) out.push(this.items[(this.start + i) % this.capacity] as T);
    return out;
  }

  tail(n: number): T[] {
    return n > 0 ? this.toArray().slice(-n) : [];
  }

  clear(): void {
    this.items = new Array<T | undefined>(this.capacity);
    this.start = 0;
    this.size = 0;
  }
}
