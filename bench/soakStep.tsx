/** What one soak step reports: counts to print, and what broke the rules (empty when none). */
export interface SoakStep {
	title: string;
	lines: string[];
	violations: string[];
}
