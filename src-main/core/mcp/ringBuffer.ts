// A bounded log per server (stderr and server log messages) for the Logs view and error hints.
export class RingBuffer<T> {
  private items: T[] = [];
  constructor(private readonly capacity: number) {}
  push(item: T): void {
    this.items.push(item);
    if (this.items.length > this.capacity) this.items.splice(0, this.items.length - this.capacity);
  }
  toArray(): T[] {
    return [...this.items];
  }
  tail(n: number): T[] {
    return this.items.slice(-n);
  }
  clear(): void {
    this.items = [];
  }
}
