/**
 * A nullable GraphQL argument or input field as the services' optional input: GraphQL tells `null` from absent,
 * the services' inputs do not (both mean "not given").
 */
export const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);
