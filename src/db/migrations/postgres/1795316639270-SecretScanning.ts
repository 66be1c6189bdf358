import { MigrationInterface, QueryRunner } from 'typeorm';

export class SecretScanning1795316639270 implements MigrationInterface {
    name = 'SecretScanning1795316639270';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("CREATE TABLE \"push_protection_placeholders\" (\"id\" SERIAL NOT NULL, \"placeholder_id\" character varying(40) NOT NULL, \"repository_id\" integer NOT NULL, \"pusher_id\" integer NOT NULL, \"secret_hash\" character varying(64) NOT NULL, \"secret_type\" character varying(100) NOT NULL, \"path\" character varying(1024), \"commit_sha\" character varying(64), \"start_line\" integer, \"end_line\" integer, \"start_column\" integer, \"end_column\" integer, \"expire_at\" TIMESTAMP NOT NULL, \"bypass_reason\" character varying(32), \"bypassed_at\" TIMESTAMP, \"bypass_expire_at\" TIMESTAMP, \"alert_id\" integer, \"created_at\" TIMESTAMP NOT NULL DEFAULT now(), CONSTRAINT \"PK_aa10280fa93b8d34465f0a63c85\" PRIMARY KEY (\"id\"))");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_pp_placeholders_placeholder_id\" ON \"push_protection_placeholders\"  (\"placeholder_id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_pp_placeholders_repo_secret\" ON \"push_protection_placeholders\"  (\"repository_id\", \"secret_hash\") ");
        await queryRunner.query("CREATE TABLE \"secret_scanning_alerts\" (\"id\" SERIAL NOT NULL, \"repository_id\" integer NOT NULL, \"owner_id\" integer NOT NULL, \"number\" integer NOT NULL, \"state\" character varying(16) NOT NULL DEFAULT 'open', \"resolution\" character varying(32), \"resolved_at\" TIMESTAMP, \"resolved_by_id\" integer, \"resolution_comment\" character varying(280), \"secret_type\" character varying(100) NOT NULL, \"secret_type_display_name\" character varying(200) NOT NULL, \"provider\" character varying(100), \"provider_slug\" character varying(100), \"secret\" text NOT NULL, \"secret_hash\" character varying(64) NOT NULL, \"validity\" character varying(16) NOT NULL DEFAULT 'unknown', \"publicly_leaked\" boolean NOT NULL DEFAULT false, \"multi_repo\" boolean NOT NULL DEFAULT false, \"is_base64_encoded\" boolean NOT NULL DEFAULT false, \"push_protection_bypassed\" boolean NOT NULL DEFAULT false, \"push_protection_bypassed_by_id\" integer, \"push_protection_bypassed_at\" TIMESTAMP, \"assigned_to_id\" integer, \"first_location_id\" integer, \"locations_count\" integer NOT NULL DEFAULT '0', \"created_at\" TIMESTAMP NOT NULL DEFAULT now(), \"updated_at\" TIMESTAMP NOT NULL, CONSTRAINT \"PK_754ca211a29e52949ed7b0ce04e\" PRIMARY KEY (\"id\"))");
        await queryRunner.query("CREATE INDEX \"IDX_ss_alerts_resolution\" ON \"secret_scanning_alerts\"  (\"resolution\") ");
        await queryRunner.query("CREATE INDEX \"IDX_ss_alerts_secret_type\" ON \"secret_scanning_alerts\"  (\"secret_type\") ");
        await queryRunner.query("CREATE INDEX \"IDX_ss_alerts_provider_slug\" ON \"secret_scanning_alerts\"  (\"provider_slug\") ");
        await queryRunner.query("CREATE INDEX \"IDX_ss_alerts_validity\" ON \"secret_scanning_alerts\"  (\"validity\") ");
        await queryRunner.query("CREATE INDEX \"IDX_ss_alerts_publicly_leaked\" ON \"secret_scanning_alerts\"  (\"publicly_leaked\") ");
        await queryRunner.query("CREATE INDEX \"IDX_ss_alerts_multi_repo\" ON \"secret_scanning_alerts\"  (\"multi_repo\") ");
        await queryRunner.query("CREATE INDEX \"IDX_ss_alerts_bypassed\" ON \"secret_scanning_alerts\"  (\"push_protection_bypassed\") ");
        await queryRunner.query("CREATE INDEX \"IDX_ss_alerts_assignee\" ON \"secret_scanning_alerts\"  (\"assigned_to_id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_ss_alerts_owner_secret\" ON \"secret_scanning_alerts\"  (\"owner_id\", \"secret_hash\") ");
        await queryRunner.query("CREATE INDEX \"IDX_ss_alerts_repo_state_created\" ON \"secret_scanning_alerts\"  (\"repository_id\", \"state\", \"created_at\", \"id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_ss_alerts_owner_state_created\" ON \"secret_scanning_alerts\"  (\"owner_id\", \"state\", \"created_at\", \"id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_ss_alerts_owner_updated\" ON \"secret_scanning_alerts\"  (\"owner_id\", \"updated_at\", \"id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_ss_alerts_owner_created\" ON \"secret_scanning_alerts\"  (\"owner_id\", \"created_at\", \"id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_ss_alerts_repo_updated\" ON \"secret_scanning_alerts\"  (\"repository_id\", \"updated_at\", \"id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_ss_alerts_repo_created\" ON \"secret_scanning_alerts\"  (\"repository_id\", \"created_at\", \"id\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_ss_alerts_repo_secret\" ON \"secret_scanning_alerts\"  (\"repository_id\", \"secret_hash\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_ss_alerts_repo_number\" ON \"secret_scanning_alerts\"  (\"repository_id\", \"number\") ");
        await queryRunner.query("CREATE TABLE \"secret_scanning_contents\" (\"id\" SERIAL NOT NULL, \"repository_id\" integer NOT NULL, \"location_type\" character varying(40) NOT NULL, \"commit_sha\" character varying(64), \"path\" character varying(1024), \"blob_sha\" character varying(64), \"url\" character varying(2048), \"pusher_id\" integer, \"content\" text NOT NULL, \"created_at\" TIMESTAMP NOT NULL DEFAULT now(), CONSTRAINT \"PK_71798238c8b33390a35bc5333ab\" PRIMARY KEY (\"id\"))");
        await queryRunner.query("CREATE INDEX \"IDX_ss_contents_repo\" ON \"secret_scanning_contents\"  (\"repository_id\", \"id\") ");
        await queryRunner.query("CREATE TABLE \"secret_scanning_alert_counters\" (\"repository_id\" integer NOT NULL, \"last_number\" integer NOT NULL DEFAULT '0', CONSTRAINT \"PK_c78c41f629ab9408e7cd1434209\" PRIMARY KEY (\"repository_id\"))");
        await queryRunner.query("CREATE TABLE \"secret_scanning_locations\" (\"id\" SERIAL NOT NULL, \"alert_id\" integer NOT NULL, \"type\" character varying(40) NOT NULL, \"place_key\" character varying(64) NOT NULL, \"path\" character varying(1024), \"start_line\" integer, \"end_line\" integer, \"start_column\" integer, \"end_column\" integer, \"blob_sha\" character varying(64), \"commit_sha\" character varying(64), \"url\" character varying(2048), \"created_at\" TIMESTAMP NOT NULL DEFAULT now(), CONSTRAINT \"PK_0adfd38c27874e7b1b44c5c494b\" PRIMARY KEY (\"id\"))");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_ss_locations_place\" ON \"secret_scanning_locations\"  (\"alert_id\", \"place_key\") ");
        await queryRunner.query("CREATE INDEX \"IDX_ss_locations_alert\" ON \"secret_scanning_locations\"  (\"alert_id\", \"id\") ");
        await queryRunner.query("CREATE TABLE \"secret_scanning_scans\" (\"id\" SERIAL NOT NULL, \"repository_id\" integer NOT NULL, \"kind\" character varying(32) NOT NULL, \"type\" character varying(32) NOT NULL, \"status\" character varying(16) NOT NULL, \"started_at\" TIMESTAMP, \"completed_at\" TIMESTAMP, \"pattern_slug\" character varying(100), \"pattern_scope\" character varying(32), \"alerts_found\" integer NOT NULL DEFAULT '0', CONSTRAINT \"PK_5dbe3d06d861d8da91c6340c229\" PRIMARY KEY (\"id\"))");
        await queryRunner.query("CREATE INDEX \"IDX_ss_scans_repo_kind\" ON \"secret_scanning_scans\"  (\"repository_id\", \"kind\", \"id\") ");
        await queryRunner.query("ALTER TABLE \"secret_scanning_alerts\" ADD CONSTRAINT \"FK_c66847fdbd4df772cc38f4b3db7\" FOREIGN KEY (\"repository_id\") REFERENCES \"repositories\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
        await queryRunner.query("ALTER TABLE \"secret_scanning_alerts\" ADD CONSTRAINT \"FK_2ccac42500a3a7b240cc61816b6\" FOREIGN KEY (\"owner_id\") REFERENCES \"accounts\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
        await queryRunner.query("ALTER TABLE \"secret_scanning_locations\" ADD CONSTRAINT \"FK_7d298fc09972a3d6b8c509a0771\" FOREIGN KEY (\"alert_id\") REFERENCES \"secret_scanning_alerts\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("ALTER TABLE \"secret_scanning_locations\" DROP CONSTRAINT \"FK_7d298fc09972a3d6b8c509a0771\"");
        await queryRunner.query("ALTER TABLE \"secret_scanning_alerts\" DROP CONSTRAINT \"FK_2ccac42500a3a7b240cc61816b6\"");
        await queryRunner.query("ALTER TABLE \"secret_scanning_alerts\" DROP CONSTRAINT \"FK_c66847fdbd4df772cc38f4b3db7\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_ss_scans_repo_kind\"");
        await queryRunner.query("DROP TABLE \"secret_scanning_scans\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_ss_locations_alert\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_ss_locations_place\"");
        await queryRunner.query("DROP TABLE \"secret_scanning_locations\"");
        await queryRunner.query("DROP TABLE \"secret_scanning_alert_counters\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_ss_contents_repo\"");
        await queryRunner.query("DROP TABLE \"secret_scanning_contents\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_ss_alerts_repo_number\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_ss_alerts_repo_secret\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_ss_alerts_repo_created\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_ss_alerts_repo_updated\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_ss_alerts_owner_created\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_ss_alerts_owner_updated\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_ss_alerts_owner_state_created\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_ss_alerts_repo_state_created\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_ss_alerts_owner_secret\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_ss_alerts_assignee\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_ss_alerts_bypassed\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_ss_alerts_multi_repo\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_ss_alerts_publicly_leaked\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_ss_alerts_validity\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_ss_alerts_provider_slug\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_ss_alerts_secret_type\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_ss_alerts_resolution\"");
        await queryRunner.query("DROP TABLE \"secret_scanning_alerts\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_pp_placeholders_repo_secret\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_pp_placeholders_placeholder_id\"");
        await queryRunner.query("DROP TABLE \"push_protection_placeholders\"");
    }
}
