// The common parsers, each written once. An empty value takes action.yml's default (INPUT_DEFAULTS),
// parsed by the same rule: a runner passes the default itself, a direct call (a test, a local run)
// passes '', and both must give the same result. Every refusal is an InputError that names the input.
import { INPUT_DEFAULTS, type InputName } from '../action-metadata.js'
import { InputError } from '../errors.js'

/** The value, or action.yml's default when it is empty ('' when there is none). */
export function orDefault(name: InputName, value: string): string {
  return value === '' ? INPUT_DEFAULTS[name] : value
}

/** @actions/core's getBooleanInput rules, which every action follows: true, True, TRUE, false, False, FALSE; nothing else. */
/**
 * Whether the user set an input: a runner passes every input's default itself, so a value equal to
 * action.yml's default says nothing about the user's intent.
 */
export function isSet(name: InputName, value: string): boolean {
  return value !== '' && value !== INPUT_DEFAULTS[name]
}

export function parseBoolean(name: InputName, value: string): boolean {
  const v = orDefault(name, value)
  if (['true', 'True', 'TRUE'].includes(v)) return true
  if (['false', 'False', 'FALSE'].includes(v)) return false
  throw new InputError(`${name} '${v}' is not a boolean: write true or false (also True, TRUE, False or FALSE, as for every action).`)
}

function inRange(name: InputName, value: string, n: number, min: number, max: number): number {
  if (n < min || n > max) throw new InputError(`${name} ${value} is out of range: write a number from ${min} to ${max}.`)
  return n
}

export function parseInteger(name: InputName, value: string, min: number, max: number): number {
  const v = orDefault(name, value)
  if (!/^\d+$/.test(v)) throw new InputError(`${name} '${v}' is not a whole number: write a number from ${min} to ${max}.`)
  return inRange(name, v, Number(v), min, max)
}

/** A positive number with an optional fraction (total-timeout-minutes: 0.5 is half a minute). */
export function parseDecimal(name: InputName, value: string, min: number, max: number): number {
  const v = orDefault(name, value)
  if (!/^\d+(\.\d+)?$/.test(v)) throw new InputError(`${name} '${v}' is not a number: write a number from ${min} to ${max}, e.g. 30 or 2.5.`)
  return inRange(name, v, Number(v), min, max)
}

/** undefined when the value (and action.yml's default) is empty, else what `parse` makes of it. */
export function optional<T>(name: InputName, value: string, parse: (value: string) => T): T | undefined {
  return orDefault(name, value) === '' ? undefined : parse(value)
}

/** `when` narrows the rule ("when search-query is set"); `why` says how to set the input. */
export function required(name: InputName, value: string, why: string, when?: string): string {
  if (value === '') throw new InputError(`Input ${name} is required${when ? ` ${when}` : ''}: ${why}`)
  return value
}
