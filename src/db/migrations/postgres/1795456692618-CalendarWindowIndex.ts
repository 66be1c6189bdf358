import { MigrationInterface, QueryRunner } from 'typeorm';

export class CalendarWindowIndex1795456692618 implements MigrationInterface {
    name = 'CalendarWindowIndex1795456692618';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("CREATE INDEX \"IDX_calendar_events_window\" ON \"calendar_events\"  (\"status\", \"start_local\", \"end_local\", \"hide_from_listings\") ");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("DROP INDEX \"public\".\"IDX_calendar_events_window\"");
    }
}
