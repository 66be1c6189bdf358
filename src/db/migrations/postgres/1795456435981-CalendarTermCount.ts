import { MigrationInterface, QueryRunner } from 'typeorm';

export class CalendarTermCount1795456435981 implements MigrationInterface {
    name = 'CalendarTermCount1795456435981';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("ALTER TABLE \"calendar_terms\" ADD \"count\" integer NOT NULL DEFAULT '0'");
        // Existing terms get their count (published events linked), as the services keep it from now on.
        await queryRunner.query("UPDATE \"calendar_terms\" SET \"count\" = (SELECT COUNT(*) FROM \"calendar_event_terms\" l JOIN \"calendar_events\" e ON e.\"id\" = l.\"event_id\" WHERE e.\"status\" = 'publish' AND l.\"term_id\" = \"calendar_terms\".\"id\")");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("ALTER TABLE \"calendar_terms\" DROP COLUMN \"count\"");
    }
}
