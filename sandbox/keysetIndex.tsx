/**
 * An array kept sorted by (key, seq), the keyset order of every list endpoint.
 *
 * `seq` is a unique, increasing internal number, so items sharing a timestamp still have one
 * stable order. A page starts right after a (key, seq) position found by binary search, so
 * each page costs O(log n + scanned items) whatever its depth, and items inserted or moved
 * elsewhere in the order never shift the items that come after the position.
 */

export interface KeysetPosition {
	key: number;
	seq: number;
}

export type SortOrder = 'asc' | 'desc';

export interface PageRequest<T> {
	order: SortOrder;
	limit: number;
	/** Position of the last item of the previous page; absent for the first page. */
	after?: KeysetPosition;
	/** Filter applied while scanning (filters first, then pagination). */
	matches?: (item: T) => boolean;
}

export interface PageResult<T> {
	items: T[];
	/** Exact: true only when at least one more matching item follows the page. */
	hasMore: boolean;
}

export class KeysetIndex<T extends { readonly seq: number }> {
	private readonly items: T[] = [];
	private bulkMode = false;

	/** `keyOf` must return the value the item is currently indexed under (see `remove`). */
	constructor(private readonly keyOf: (item: T) => number) {}

	get size(): number {
		return this.items.length;
	}

	/** Until `endBulk`, inserts append without ordering; `endBulk` sorts once (fast seeding). */
	beginBulk(): void {
		this.bulkMode = true;
	}

	endBulk(): void {
		this.bulkMode = false;
		if (!this.isSorted()) this.items.sort((a, b) => this.compareItems(a, b));
	}

	insert(item: T): void {
		const items = this.items;
		const last = items[items.length - 1];
		// Appending is the common case (new items carry the newest timestamp): O(1).
		if (this.bulkMode || last === undefined || this.compareItems(last, item) < 0) {
			items.push(item);
			return;
		}
		items.splice(this.lowerBound(this.keyOf(item), item.seq), 0, item);
	}

	/**
	 * Removes an item. Call it before changing the item's key (or pass the old key), because
	 * the item is found by binary search on the key it was indexed under.
	 */
	remove(item: T, key: number = this.keyOf(item)): void {
		const index = this.lowerBound(key, item.seq);
		if (this.items[index] !== item)
			throw new Error(`KeysetIndex: item seq ${item.seq} is not indexed under key ${key}`);
		this.items.splice(index, 1);
	}

	positionOf(item: T): KeysetPosition {
		return { key: this.keyOf(item), seq: item.seq };
	}

	page(request: PageRequest<T>): PageResult<T> {
		const { order, limit, after, matches } = request;
		const items = this.items;
		const step = order === 'asc' ? 1 : -1;
		let index: number;
		if (order === 'asc') index = after ? this.upperBound(after.key, after.seq) : 0;
		else index = after ? this.lowerBound(after.key, after.seq) - 1 : items.length - 1;

		const page: T[] = [];
		for (; index >= 0 && index < items.length; index += step) {
			const item = items[index];
			if (matches && !matches(item)) continue;
			// One look-ahead match decides has_more exactly.
			if (page.length === limit) return { items: page, hasMore: true };
			page.push(item);
		}
		return { items: page, hasMore: false };
	}

	/** All items in the given order (copies; for assertions, not for the request path). */
	all(order: SortOrder = 'asc'): T[] {
		return order === 'asc' ? this.items.slice() : this.items.slice().reverse();
	}

	private compareItems(a: T, b: T): number {
		return compareKeyset(this.keyOf(a), a.seq, this.keyOf(b), b.seq);
	}

	/** First index whose (key, seq) is >= the given position. */
	private lowerBound(key: number, seq: number): number {
		return this.firstIndexWhere((item) => compareKeyset(this.keyOf(item), item.seq, key, seq) >= 0);
	}

	/** First index whose (key, seq) is > the given position. */
	private upperBound(key: number, seq: number): number {
		return this.firstIndexWhere((item) => compareKeyset(this.keyOf(item), item.seq, key, seq) > 0);
	}

	/** Binary search: the first index where `atOrPast` holds (it holds for every later index too), else the length. */
	private firstIndexWhere(atOrPast: (item: T) => boolean): number {
		let low = 0;
		let high = this.items.length;
		while (low < high) {
			const mid = (low + high) >>> 1;
			if (atOrPast(this.items[mid])) high = mid;
			else low = mid + 1;
		}
		return low;
	}

	private isSorted(): boolean {
		for (let i = 1; i < this.items.length; i++) {
			if (this.compareItems(this.items[i - 1], this.items[i]) > 0) return false;
		}
		return true;
	}
}

function compareKeyset(keyA: number, seqA: number, keyB: number, seqB: number): number {
	if (keyA !== keyB) return keyA < keyB ? -1 : 1;
	return seqA - seqB;
}
