// The bench's stand-ins stop with an error naming them outside what they mirror; their agreement with n8n's nodes
// is the e2e case "the harness's stand-ins for n8n-nodes-base put out what n8n's nodes do".
import { registerBenchStandIns } from '../harness/benchStandIns';
import { itemsWorkflow, runWorkflow } from '../harness';

beforeAll(registerBenchStandIns);

const tickets = [{ data: [{ id: 'tkt_1' }, { id: 'tkt_2' }], count: 2 }];

it.each([
	[
		'Split Out with "All Other Fields"',
		'n8n-nodes-base.splitOut',
		{ fieldToSplitOut: 'data', include: 'allOtherFields', options: {} },
		/Split Out stand-in does not implement include = "allOtherFields"/,
	],
	[
		'Split Out of two fields',
		'n8n-nodes-base.splitOut',
		{ fieldToSplitOut: 'data, count', options: {} },
		/Split Out stand-in does not implement fieldToSplitOut/,
	],
	[
		'Split Out with a destination field',
		'n8n-nodes-base.splitOut',
		{ fieldToSplitOut: 'data', options: { destinationFieldName: 'ticket' } },
		/Split Out stand-in does not implement options/,
	],
	[
		'If with loose type validation',
		'n8n-nodes-base.if',
		{ conditions: {}, options: { looseTypeValidation: true } },
		/If stand-in does not implement options/,
	],
	[
		'Code run once for each item',
		'n8n-nodes-base.code',
		{ mode: 'runOnceForEachItem', jsCode: 'return $json;' },
		/Code stand-in does not implement mode = "runOnceForEachItem"/,
	],
	[
		'Code in Python',
		'n8n-nodes-base.code',
		{ language: 'python', pythonCode: 'return _input.all()' },
		/Code stand-in does not implement language = "python"/,
	],
	[
		'Code reading a global it does not give',
		'n8n-nodes-base.code',
		{ jsCode: 'return [{ json: $json }];' },
		/\$json is not defined: the bench's Code stand-in gives the script only \$input, \$/,
	],
])(
	'%s fails the run with an error that names the stand-in',
	async (_name, type, parameters, message) => {
		const run = await runWorkflow(
			itemsWorkflow(tickets, type, parameters, {
				typeVersion: type.endsWith('.if') ? 2.2 : type.endsWith('.code') ? 2 : 1,
			}),
			{},
		);
		expect(run.error?.message).toMatch(message);
	},
);
