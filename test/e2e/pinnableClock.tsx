/** A sandbox clock that can be held still, so tickets created one after the other share a `created_at`, as in a busy service. */
export class PinnableClock {
	private pinned: number | undefined;

	readonly now = (): number => this.pinned ?? Date.now();

	/** Until `release()`, every timestamp the sandbox makes is `at` (epoch ms). */
	pin(at: number): void {
		this.pinned = at;
	}

	release(): void {
		this.pinned = undefined;
	}
}
