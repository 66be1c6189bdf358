/**
 * Secret scanning DataLoaders (fresh per request, flat so clearLoaders reaches them): alerts by id and by number,
 * locations by id. Visibility is applied by the secret scanning services afterwards.
 */
import DataLoader from 'dataloader';
import { EntityManager, In } from 'typeorm';
import { SecretScanningAlertEntity, SecretScanningLocationEntity } from '../../entities/secret-scanning';
import { byIdLoader, MAX_BATCH, pairs } from './loader';

export function createSecretScanningLoaders(db: EntityManager) {
  const secretScanningAlertById = byIdLoader(db, SecretScanningAlertEntity);
  return {
    /** secret scanning: an alert's first location (first_location_detected) */
    locationById: byIdLoader(db, SecretScanningLocationEntity),
    /** secret scanning: alerts by id (node(id:) / nodes(ids:)); visibility is applied by the service afterwards */
    secretScanningAlertById,
    /** secret scanning: key `${repositoryId}:${number}` -> alert or null (primes secretScanningAlertById) */
    secretScanningAlertByNumber: new DataLoader<string, SecretScanningAlertEntity | null>(
      async (keys) => {
        const ps = pairs(keys);
        const rows = await db.getRepository(SecretScanningAlertEntity).find({
          where: { repositoryId: In([...new Set(ps.map((p) => p[0]))]), number: In([...new Set(ps.map((p) => p[1]))]) },
        });
        for (const r of rows) secretScanningAlertById.prime(r.id, r);
        const map = new Map(rows.map((r) => [`${r.repositoryId}:${r.number}`, r]));
        return keys.map((k) => map.get(k) ?? null);
      },
      { maxBatchSize: MAX_BATCH },
    ),
  };
}
