import { randomBytes } from 'node:crypto';
import type { ICheckProcessedOptions, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { SCHEDULE_REGISTERS } from './freshness';
import { registerBitEntry, registersEntry } from './storeEntries';

/**
 * What Send Only Changes keeps of the workflow's runs (see sentBefore.ts): the generation of the last
 * execution that recorded its end, the schedule (freshness.ts), and a stamp drawn by that run.
 *
 * n8n's store is a set, and asking it for an entry records the entry: a value is read by asking for each
 * bit's two entries and taking back the one that was not there. Taken back from the workflow's record,
 * which holds every contact's values, that costs a scan of the whole record per entry (n8n finds each
 * one by a linear search); so the bits are kept in the node's own record (scope `node`, a few hundred
 * entries), and the workflow's record holds one entry naming all the values and the stamp. A run asks
 * for that entry with its other entries: there, the values it read are the workflow's; gone (another
 * node's run recorded its end since, or the workflow forgot), the run knows nothing of before.
 * Later runs of the same execution (other nodes, loop passes, Retry On Fail) take the values from the
 * execution's own context, where the first run that recorded its end left them.
 */
const REGISTERS = ['latest', ...SCHEDULE_REGISTERS, 'stamp'] as const;
type Register = (typeof REGISTERS)[number];
export type Registers = Partial<Record<Register, number>>;

export interface KnownRegisters {
	registers: Registers;
	/** The generation before this execution's: what its runs compare with. */
	previous?: number;
}

const REGISTER_BITS = 32;
/** Where the execution's own context keeps them for its later runs. */
const FLOW_KEY = 'sendOnlyChangesRegisters';

interface FlowRegisters {
	generation: number;
	registers: Registers;
	previous?: number;
}

/** The values as this execution's first run left them, else as this node last left them. */
export async function knownRegisters(
	context: IExecuteFunctions,
	current: number,
	options: ICheckProcessedOptions,
	record: (entries: string[]) => Promise<{ processed: unknown[]; new: unknown[] }>,
): Promise<KnownRegisters> {
	const kept = (context.getContext('flow') as IDataObject)[FLOW_KEY] as FlowRegisters | undefined;
	if (kept?.generation === current) return { registers: kept.registers, previous: kept.previous };
	const probes = REGISTERS.flatMap((register) => bitEntries(register));
	const read = await record(probes);
	const present = new Set(read.processed.map(String));
	const recorded = read.new.map(String);
	if (recorded.length > 0) await context.helpers.removeProcessed(recorded, 'node', options);
	const registers: Registers = {};
	for (const register of REGISTERS) registers[register] = readRegister(present, register);
	// Left by an earlier run of this execution that did not reach its end: nothing to compare with.
	if (registers.latest === current) return { registers: {} };
	return { registers, previous: registers.latest };
}

/** The workflow's entry that confirms these values; undefined for values never recorded. */
export function confirmationOf(registers: Registers): string | undefined {
	if (registers.stamp === undefined || registers.latest === undefined) return undefined;
	return registersEntry(REGISTERS.map((register) => registers[register]));
}

/** The values a run that starts a generation leaves, with a stamp of its own. */
export function advancedRegisters(current: number, schedule: Registers): Registers {
	const registers: Registers = { latest: current, stamp: randomBytes(4).readUInt32BE(0) };
	for (const register of SCHEDULE_REGISTERS) registers[register] = schedule[register];
	return registers;
}

/** Keeps the values for this execution's later runs and in the node's record for its next execution. */
export async function keepRegisters(
	context: IExecuteFunctions,
	current: number,
	known: KnownRegisters,
	options: ICheckProcessedOptions,
	record: (entries: string[]) => Promise<unknown>,
): Promise<void> {
	const kept: FlowRegisters = { generation: current, registers: known.registers, previous: known.previous };
	(context.getContext('flow') as IDataObject)[FLOW_KEY] = kept as unknown as IDataObject;
	// The node's record holds nothing else: every bit's entries go, then the values' are written anew.
	await context.helpers.removeProcessed(
		REGISTERS.flatMap((register) => bitEntries(register)),
		'node',
		options,
	);
	await record(REGISTERS.flatMap((register) => valueEntries(register, known.registers[register])));
}

function bitEntries(register: Register): string[] {
	return Array.from({ length: REGISTER_BITS }, (_, bit) =>
		([0, 1] as const).map((value) => registerBitEntry(register, bit, value)),
	).flat();
}

function valueEntries(register: Register, value: number | undefined): string[] {
	if (value === undefined) return [];
	return Array.from({ length: REGISTER_BITS }, (_, bit) =>
		registerBitEntry(register, bit, ((value >>> bit) & 1) as 0 | 1),
	);
}

/** The register's value when exactly one entry of each bit is present; undefined when it was never written. */
function readRegister(present: Set<string>, register: Register): number | undefined {
	let value = 0;
	for (let bit = 0; bit < REGISTER_BITS; bit++) {
		const zero = present.has(registerBitEntry(register, bit, 0));
		const one = present.has(registerBitEntry(register, bit, 1));
		if (zero === one) return undefined;
		if (one) value = (value | (1 << bit)) >>> 0;
	}
	return value;
}
