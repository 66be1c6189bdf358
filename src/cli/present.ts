/** The JSON documents the admin CLI prints (camelCase). */
import type { EntityManager } from 'typeorm';
import { In } from 'typeorm';
import { AccountEntity, RepositoryEntity } from '../../entities/identity';
import type { Services } from '../services';

export function userJson(a: AccountEntity) {
  return {
    id: a.id,
    login: a.login,
    type: a.type,
    name: a.name,
    email: a.email,
    calendarRole: a.calendarRole,
    siteAdmin: a.siteAdmin,
    createdAt: a.createdAt,
  };
}

export function orgJson(a: AccountEntity) {
  return { id: a.id, login: a.login, type: a.type, name: a.name, createdAt: a.createdAt };
}

export async function loginsById(services: Services, db: EntityManager, ids: number[]): Promise<Map<number, string>> {
  const accounts = await services.identity.accountsByIds(db, [...new Set(ids)]);
  return new Map(accounts.map((a) => [a.id, a.login]));
}

/** owner/name of each repository id, in the order given. */
export async function repositoryFullNames(services: Services, db: EntityManager, ids: number[]): Promise<string[]> {
  const repos = await db.getRepository(RepositoryEntity).find({ where: { id: In([...new Set(ids)]) } });
  const byId = new Map(repos.map((r) => [r.id, r]));
  const logins = await loginsById(services, db, repos.map((r) => r.ownerId));
  return ids.map((id) => {
    const r = byId.get(id);
    return r ? `${logins.get(r.ownerId)}/${r.name}` : `#${id}`;
  });
}
