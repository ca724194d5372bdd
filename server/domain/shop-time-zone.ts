/**
 * The shop's clock: production, the carrier's pick-up and the month's offers all run on
 * Dutch time (Germany shares it), whatever zone the server itself is set to.
 */
export const shopTimeZone = "Europe/Amsterdam";
