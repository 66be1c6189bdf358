/** The part of negotiator's API used here (negotiator 1.x ships no type declarations). */
declare module 'negotiator' {
  class Negotiator {
    constructor(request: { headers: { accept?: string } });
    mediaType(available?: string[]): string | undefined;
  }
  export = Negotiator;
}
