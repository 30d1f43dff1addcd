/**
 * Delays that stop() can cancel, so no timer outlives the sandbox (jest must exit cleanly).
 * Timers are also unref'd: a pending delay never keeps the process alive on its own.
 */
export class CancellableTimers {
	private readonly pending = new Map<NodeJS.Timeout, () => void>();
	private cancelled = false;

	/** Resolves after `ms`, or immediately once `cancelAll` was called. */
	sleep(ms: number): Promise<void> {
		if (this.cancelled || ms <= 0) return Promise.resolve();
		return new Promise((resolve) => {
			const timer = setTimeout(() => {
				this.pending.delete(timer);
				resolve();
			}, ms);
			timer.unref();
			this.pending.set(timer, resolve);
		});
	}

	cancelAll(): void {
		this.cancelled = true;
		for (const [timer, resolve] of this.pending) {
			clearTimeout(timer);
			resolve();
		}
		this.pending.clear();
	}
}
