/**
 * The service registry, made from the module list: each module's services, given the services of the modules it
 * requires. Services are stateless (all request state comes in the context), so one set serves every request
 * of an app instance.
 */
import { MODULES } from '../modules';
import { AnyModule, checkModules, noteModulesOf, ServicesOfList, ServicesOptions } from '../modules/module';

export type { ServicesOptions };

export function createServices(options: ServicesOptions = {}, modules: readonly AnyModule[] = MODULES): Services {
  checkModules(modules);
  const all: Record<string, unknown> = {};
  const byModule = new Map<string, Record<string, unknown>>();
  for (const m of modules) {
    // A module is given the services of the modules it requires, nothing else.
    const needs = Object.assign({}, ...(m.requires ?? []).map((r) => byModule.get(r)));
    const made = m.services(needs, options) as Record<string, unknown>;
    for (const [name, service] of Object.entries(made)) {
      if (name in all) throw new Error(`modules: '${m.name}' gives the service '${name}' another module gives`);
      all[name] = service;
    }
    byModule.set(m.name, made);
  }
  noteModulesOf(all, modules);
  return all as Services;
}

/** Every service of every module of the app's list, by name (`ctx.services`). */
export type Services = ServicesOfList<typeof MODULES>;
