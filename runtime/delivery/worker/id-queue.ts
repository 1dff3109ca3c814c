/** A FIFO of message ids with O(1) take, unlike Array#shift on long backlogs. */
export class IdQueue {
  private items: string[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(id: string): void {
    this.items.push(id);
  }

  take(): string | undefined {
    const id = this.items[this.head++];
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return id;
  }
}
