/**
 * Every message the WordPress family answers with, per language (da, en, fr, de): WordPress core's (REST
 * validation, routing, application passwords) and The Events Calendar's (`src/Tribe/REST/V1/Messages.php`,
 * wording and missing periods kept). Templates use PHP's sprintf placeholders as WordPress writes them:
 * `%s`/`%d` and positional `%1$s`, `%2$d`; `%l` / `%2$l` is a list ("a, b, and c", wp_sprintf's `%l`),
 * joined the language's way.
 *
 * Errors are thrown with their English text (services do not know the client's language); translateMessage()
 * recognises an English message by its template, takes the values out and renders the chosen language.
 * A message no template matches is answered as written.
 */
import type { Language } from '../../i18n';

export type Translations = Record<Language, string>;

export interface CatalogEntry extends Translations {
  /** The HTTP status a code answers with (TEC codes; core codes carry their own at the throw site). */
  status?: number;
}

/** WordPress core messages, keyed by a stable id (the WP error code where there is one). */
export const CORE_MESSAGES = {
  rest_no_route: {
    en: 'No route was found matching the URL and request method.',
    da: 'Der blev ikke fundet nogen rute, der matcher URL’en og anmodningsmetoden.',
    fr: 'Aucune route correspondant à l’URL et à la méthode de requête n’a été trouvée.',
    de: 'Es wurde keine Route gefunden, die der URL und der Anfragemethode entspricht.',
  },
  rest_invalid_json: {
    en: 'Invalid JSON body passed.',
    da: 'Ugyldig JSON-brødtekst sendt.',
    fr: 'Le corps JSON transmis n’est pas valide.',
    de: 'Ungültiger JSON-Body übergeben.',
  },
  rest_forbidden: {
    en: 'Sorry, you are not allowed to do that.',
    da: 'Du har desværre ikke tilladelse til at gøre dette.',
    fr: 'Désolé, vous n’avez pas l’autorisation de faire cela.',
    de: 'Du bist leider nicht berechtigt, das zu tun.',
  },
  rest_invalid_param: {
    en: 'Invalid parameter(s): %s',
    da: 'Ugyldig(e) parameter(e): %s',
    fr: 'Paramètre(s) non valide(s) : %s',
    de: 'Ungültige(r) Parameter: %s',
  },
  rest_missing_callback_param: {
    en: 'Missing parameter(s): %s',
    da: 'Manglende parameter(e): %s',
    fr: 'Paramètre(s) manquant(s) : %s',
    de: 'Fehlende(r) Parameter: %s',
  },
  invalid_parameter: {
    en: 'Invalid parameter.',
    da: 'Ugyldig parameter.',
    fr: 'Paramètre non valide.',
    de: 'Ungültiger Parameter.',
  },
  rest_invalid_type: {
    en: '%1$s is not of type %2$s.',
    da: '%1$s er ikke af typen %2$s.',
    fr: '%1$s n’est pas de type %2$s.',
    de: '%1$s ist nicht vom Typ %2$s.',
  },
  rest_not_in_enum: {
    en: '%1$s is not one of %2$l.',
    da: '%1$s er ikke en af %2$l.',
    fr: '%1$s n’est pas l’une des valeurs suivantes : %2$l.',
    de: '%1$s ist keiner der Werte %2$l.',
  },
  rest_not_in_enum_single: {
    en: '%1$s is not %2$s.',
    da: '%1$s er ikke %2$s.',
    fr: '%1$s n’est pas %2$s.',
    de: '%1$s ist nicht %2$s.',
  },
  rest_out_of_bounds_min: {
    en: '%1$s must be greater than or equal to %2$d',
    da: '%1$s skal være større end eller lig med %2$d',
    fr: '%1$s doit être supérieur ou égal à %2$d',
    de: '%1$s muss größer oder gleich %2$d sein',
  },
  rest_out_of_bounds_max: {
    en: '%1$s must be less than or equal to %2$d',
    da: '%1$s skal være mindre end eller lig med %2$d',
    fr: '%1$s doit être inférieur ou égal à %2$d',
    de: '%1$s muss kleiner oder gleich %2$d sein',
  },
  rest_out_of_bounds_between: {
    en: '%1$s must be between %2$d (inclusive) and %3$d (inclusive)',
    da: '%1$s skal være mellem %2$d (inklusive) og %3$d (inklusive)',
    fr: '%1$s doit être compris entre %2$d (inclus) et %3$d (inclus)',
    de: '%1$s muss zwischen %2$d (einschließlich) und %3$d (einschließlich) liegen',
  },
  invalid_username: {
    en: '<strong>Error:</strong> Unknown username. Check again or try your email address.',
    da: '<strong>Fejl:</strong> Ukendt brugernavn. Tjek det igen, eller prøv med din e-mailadresse.',
    fr: '<strong>Erreur :</strong> identifiant inconnu. Vérifiez-le ou essayez avec votre adresse e-mail.',
    de: '<strong>Fehler:</strong> Unbekannter Benutzername. Überprüfe ihn noch einmal oder versuche es mit deiner E-Mail-Adresse.',
  },
  incorrect_password: {
    en: 'The provided password is an invalid application password.',
    da: 'Den angivne adgangskode er ikke en gyldig applikationsadgangskode.',
    fr: 'Le mot de passe fourni n’est pas un mot de passe d’application valide.',
    de: 'Das angegebene Passwort ist kein gültiges Anwendungspasswort.',
  },
  rest_invalid_namespace: {
    en: 'The specified namespace could not be found.',
    da: 'Det angivne navnerum blev ikke fundet.',
    fr: 'L’espace de noms indiqué est introuvable.',
    de: 'Der angegebene Namensraum wurde nicht gefunden.',
  },
} satisfies Record<string, Translations>;

export type CoreMessageId = keyof typeof CORE_MESSAGES;

/** The Events Calendar's error codes: status and message (reference §5; TEC's Messages.php for update/delete). */
export const TEC_MESSAGES: Record<string, CatalogEntry> = {
  'event-archive-page-not-found': {
    status: 404,
    en: 'The requested event archive page does not exist',
    da: 'Den ønskede side i begivenhedsarkivet findes ikke',
    fr: 'La page d’archive d’évènements demandée n’existe pas',
    de: 'Die angeforderte Seite des Veranstaltungsarchivs existiert nicht',
  },
  'venue-archive-page-not-found': {
    status: 404,
    en: 'The requested venue archive page does not exist',
    da: 'Den ønskede side i stedarkivet findes ikke',
    fr: 'La page d’archive de lieux demandée n’existe pas',
    de: 'Die angeforderte Seite des Veranstaltungsortarchivs existiert nicht',
  },
  'organizer-archive-page-not-found': {
    status: 404,
    en: 'The requested organizer archive page does not exist',
    da: 'Den ønskede side i arrangørarkivet findes ikke',
    fr: 'La page d’archive d’organisateurs demandée n’existe pas',
    de: 'Die angeforderte Seite des Veranstalterarchivs existiert nicht',
  },
  'rest-event-not-found': {
    status: 404,
    en: 'Event with ID %d does not exist.',
    da: 'Begivenheden med ID %d findes ikke.',
    fr: 'L’évènement avec l’ID %d n’existe pas.',
    de: 'Die Veranstaltung mit der ID %d existiert nicht.',
  },
  'rest-invalid-event-id': {
    status: 400,
    en: 'The specified ID is not a valid event.',
    da: 'Det angivne ID er ikke en gyldig begivenhed.',
    fr: 'L’ID indiqué ne correspond pas à un évènement valide.',
    de: 'Die angegebene ID ist keine gültige Veranstaltung.',
  },
  'event-not-accessible': {
    status: 403,
    en: 'The requested event is not accessible',
    da: 'Den ønskede begivenhed er ikke tilgængelig',
    fr: 'L’évènement demandé n’est pas accessible',
    de: 'Die angeforderte Veranstaltung ist nicht zugänglich',
  },
  'event-password-protected': {
    status: 403,
    en: 'The requested event is not accessible without a password',
    da: 'Den ønskede begivenhed er ikke tilgængelig uden en adgangskode',
    fr: 'L’évènement demandé n’est pas accessible sans mot de passe',
    de: 'Die angeforderte Veranstaltung ist ohne Passwort nicht zugänglich',
  },
  'event-no-longer-available': {
    status: 403,
    en: 'This event is no longer available',
    da: 'Denne begivenhed er ikke længere tilgængelig',
    fr: 'Cet évènement n’est plus disponible',
    de: 'Diese Veranstaltung ist nicht mehr verfügbar',
  },
  'event-is-in-trash': {
    status: 410,
    en: 'The event is already trashed',
    da: 'Begivenheden er allerede i papirkurven',
    fr: 'L’évènement est déjà dans la corbeille',
    de: 'Die Veranstaltung ist bereits im Papierkorb',
  },
  'could-not-delete-event': {
    status: 500,
    en: 'The event could not be deleted',
    da: 'Begivenheden kunne ikke slettes',
    fr: 'L’évènement n’a pas pu être supprimé',
    de: 'Die Veranstaltung konnte nicht gelöscht werden',
  },
  'could-not-update-event': {
    status: 403,
    en: 'The event could not be updated',
    da: 'Begivenheden kunne ikke opdateres',
    fr: 'L’évènement n’a pas pu être mis à jour',
    de: 'Die Veranstaltung konnte nicht aktualisiert werden',
  },
  'venue-not-accessible': {
    status: 403,
    en: 'The requested venue is not accessible',
    da: 'Det ønskede sted er ikke tilgængeligt',
    fr: 'Le lieu demandé n’est pas accessible',
    de: 'Der angeforderte Veranstaltungsort ist nicht zugänglich',
  },
  'organizer-not-accessible': {
    status: 403,
    en: 'The requested organizer is not accessible',
    da: 'Den ønskede arrangør er ikke tilgængelig',
    fr: 'L’organisateur demandé n’est pas accessible',
    de: 'Der angeforderte Veranstalter ist nicht zugänglich',
  },
  'venue-is-in-trash': {
    status: 410,
    en: 'The venue is already trashed',
    da: 'Stedet er allerede i papirkurven',
    fr: 'Le lieu est déjà dans la corbeille',
    de: 'Der Veranstaltungsort ist bereits im Papierkorb',
  },
  'organizer-is-in-trash': {
    status: 410,
    en: 'The organizer is already trashed',
    da: 'Arrangøren er allerede i papirkurven',
    fr: 'L’organisateur est déjà dans la corbeille',
    de: 'Der Veranstalter ist bereits im Papierkorb',
  },
  'could-not-create-venue': {
    status: 400,
    en: 'The venue could not be created from the provided data',
    da: 'Stedet kunne ikke oprettes ud fra de angivne data',
    fr: 'Le lieu n’a pas pu être créé à partir des données fournies',
    de: 'Der Veranstaltungsort konnte aus den angegebenen Daten nicht erstellt werden',
  },
  'could-not-create-organizer': {
    status: 400,
    en: 'The organizer could not be created from the provided data',
    da: 'Arrangøren kunne ikke oprettes ud fra de angivne data',
    fr: 'L’organisateur n’a pas pu être créé à partir des données fournies',
    de: 'Der Veranstalter konnte aus den angegebenen Daten nicht erstellt werden',
  },
  'could-not-update-venue': {
    status: 400,
    en: 'The venue could not be updated',
    da: 'Stedet kunne ikke opdateres',
    fr: 'Le lieu n’a pas pu être mis à jour',
    de: 'Der Veranstaltungsort konnte nicht aktualisiert werden',
  },
  'could-not-update-organizer': {
    status: 400,
    en: 'The organizer could not be updated',
    da: 'Arrangøren kunne ikke opdateres',
    fr: 'L’organisateur n’a pas pu être mis à jour',
    de: 'Der Veranstalter konnte nicht aktualisiert werden',
  },
  'could-not-delete-venue': {
    status: 500,
    en: 'The venue could not be deleted',
    da: 'Stedet kunne ikke slettes',
    fr: 'Le lieu n’a pas pu être supprimé',
    de: 'Der Veranstaltungsort konnte nicht gelöscht werden',
  },
  'could-not-delete-organizer': {
    status: 500,
    en: 'The organizer could not be deleted',
    da: 'Arrangøren kunne ikke slettes',
    fr: 'L’organisateur n’a pas pu être supprimé',
    de: 'Der Veranstalter konnte nicht gelöscht werden',
  },
  'invalid-linked-post-id': {
    status: 400,
    en: 'The provided linked post ID is not valid',
    da: 'Det angivne ID for det tilknyttede indlæg er ikke gyldigt',
    fr: 'L’ID de la publication liée fourni n’est pas valide',
    de: 'Die angegebene ID des verknüpften Beitrags ist ungültig',
  },
  'archive-bad-search-string': {
    status: 400,
    en: "The 'search' parameter must be a string",
    da: "Parameteren 'search' skal være en streng",
    fr: "Le paramètre 'search' doit être une chaîne de caractères",
    de: "Der Parameter 'search' muss eine Zeichenkette sein",
  },
};

const LIST_JOIN: Record<Language, { pair: string; last: string }> = {
  en: { pair: ' and ', last: ', and ' },
  da: { pair: ' og ', last: ' og ' },
  fr: { pair: ' et ', last: ' et ' },
  de: { pair: ' und ', last: ' und ' },
};

/** wp_sprintf's `%l`: "a", "a and b", "a, b, and c" (in the language's way). */
export function listJoin(items: readonly string[], language: Language = 'en'): string {
  const j = LIST_JOIN[language];
  if (items.length <= 1) return items.join('');
  if (items.length === 2) return items.join(j.pair);
  return `${items.slice(0, -1).join(', ')}${j.last}${items[items.length - 1]}`;
}

export type MessageArg = string | number | readonly string[];

const PLACEHOLDER = /%(?:(\d)\$)?([sdl])/g;

/** sprintf over a catalog template: `%s`, `%d`, `%1$s`, `%2$l` (arrays are joined as lists). */
export function formatMessage(template: string, args: readonly MessageArg[], language: Language = 'en'): string {
  let next = 0;
  return template.replace(PLACEHOLDER, (_m, pos: string | undefined, kind: string) => {
    const arg = args[pos ? Number(pos) - 1 : next++];
    if (arg === undefined) return '';
    if (Array.isArray(arg)) return listJoin(arg as string[], language);
    return kind === 'd' ? String(Math.trunc(Number(arg))) : String(arg);
  });
}

/** A catalog message (core id or TEC code) in `language` (English when none is chosen). */
export function catalogMessage(id: CoreMessageId | string, args: readonly MessageArg[] = [], language?: Language): string | undefined {
  const entry = (CORE_MESSAGES as Record<string, Translations>)[id] ?? TEC_MESSAGES[id];
  if (!entry) return undefined;
  return formatMessage(entry[language ?? 'en'], args, language ?? 'en');
}

/** English template -> a regex that recognises it and captures its values (positional, in order). */
interface Matcher {
  re: RegExp;
  /** For each capture group, the argument position it fills and whether it is a list. */
  slots: Array<{ index: number; list: boolean }>;
  entry: Translations;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function matcherOf(entry: Translations): Matcher {
  const slots: Matcher['slots'] = [];
  let next = 0;
  let source = '';
  let last = 0;
  for (const m of entry.en.matchAll(PLACEHOLDER)) {
    source += escapeRe(entry.en.slice(last, m.index));
    last = m.index! + m[0].length;
    const index = m[1] ? Number(m[1]) - 1 : next++;
    slots.push({ index, list: m[2] === 'l' });
    source += m[2] === 'd' ? '(-?\\d+)' : '([\\s\\S]*?)';
  }
  source += escapeRe(entry.en.slice(last));
  return { re: new RegExp(`^${source}$`), slots, entry };
}

let matchers: Matcher[] | undefined;

/** Splits an English `%l` list back into items ("a, b, and c" -> [a, b, c]). */
function splitList(s: string): string[] {
  return s.split(/, and |, | and /);
}

/**
 * An English message in `language`: the catalog template it was made from, rendered in that language with the
 * same values. Unknown messages (and no language, or English) come back unchanged.
 */
export function translateMessage(message: string, language?: Language): string {
  if (!language || language === 'en') return message;
  matchers ??= [...Object.values(CORE_MESSAGES), ...Object.values(TEC_MESSAGES)].map(matcherOf);
  for (const m of matchers) {
    const found = m.re.exec(message);
    if (!found) continue;
    const args: MessageArg[] = [];
    m.slots.forEach((slot, i) => {
      args[slot.index] = slot.list ? splitList(found[i + 1]) : found[i + 1];
    });
    return formatMessage(m.entry[language], args, language);
  }
  return message;
}

/** Statuses of WordPress-style codes other domains register (TEC's come with TEC_MESSAGES). */
const REGISTERED_STATUS = new Map<string, number>(Object.entries(TEC_MESSAGES).map(([code, e]) => [code, e.status ?? 400]));

/**
 * A domain answers some of its AppErrors with its own WordPress-style codes (`domainCode: 'event-is-in-trash'`):
 * register their statuses here (codes without an entry answer with their error category's status).
 */
export function registerWordpressErrorCodes(statuses: Record<string, number>): void {
  for (const [code, status] of Object.entries(statuses)) REGISTERED_STATUS.set(code, status);
}

export function registeredStatus(code: string): number | undefined {
  return REGISTERED_STATUS.get(code);
}

/** A domain code written the WordPress/TEC way (lower case, `-` or `_` separated): used as the answer's code. */
export function isWordpressStyleCode(code: string): boolean {
  return /^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+$/.test(code);
}
