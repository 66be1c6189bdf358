import { MigrationInterface, QueryRunner } from 'typeorm';

export class Identity1795314431353 implements MigrationInterface {
    name = 'Identity1795314431353';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("CREATE TABLE \"accounts\" (\"id\" SERIAL NOT NULL, \"login\" character varying(39) NOT NULL, \"login_lower\" character varying(39) NOT NULL, \"type\" character varying(16) NOT NULL, \"name\" character varying(255), \"email\" character varying(255), \"calendar_role\" character varying(16), \"site_admin\" boolean NOT NULL DEFAULT false, \"created_at\" TIMESTAMP NOT NULL DEFAULT now(), \"updated_at\" TIMESTAMP NOT NULL DEFAULT now(), CONSTRAINT \"PK_5a7a02c20412299d198e097a8fe\" PRIMARY KEY (\"id\"))");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_accounts_login_lower\" ON \"accounts\"  (\"login_lower\") ");
        await queryRunner.query("CREATE TABLE \"access_tokens\" (\"id\" SERIAL NOT NULL, \"user_id\" integer NOT NULL, \"kind\" character varying(16) NOT NULL, \"token_hash\" character varying(64) NOT NULL, \"token_hint\" character varying(16) NOT NULL, \"note\" character varying(255), \"scopes\" text, \"permissions\" text, \"repository_ids\" text, \"expires_at\" TIMESTAMP, \"revoked_at\" TIMESTAMP, \"created_at\" TIMESTAMP NOT NULL DEFAULT now(), CONSTRAINT \"PK_65140f59763ff994a0252488166\" PRIMARY KEY (\"id\"))");
        await queryRunner.query("CREATE INDEX \"IDX_access_tokens_user\" ON \"access_tokens\"  (\"user_id\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_access_tokens_hash\" ON \"access_tokens\"  (\"token_hash\") ");
        await queryRunner.query("CREATE TABLE \"memberships\" (\"id\" SERIAL NOT NULL, \"organization_id\" integer NOT NULL, \"user_id\" integer NOT NULL, \"role\" character varying(24) NOT NULL, \"created_at\" TIMESTAMP NOT NULL DEFAULT now(), CONSTRAINT \"PK_25d28bd932097a9e90495ede7b4\" PRIMARY KEY (\"id\"))");
        await queryRunner.query("CREATE INDEX \"IDX_memberships_user\" ON \"memberships\"  (\"user_id\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_memberships_org_user\" ON \"memberships\"  (\"organization_id\", \"user_id\") ");
        await queryRunner.query("CREATE TABLE \"repositories\" (\"id\" SERIAL NOT NULL, \"owner_id\" integer NOT NULL, \"name\" character varying(100) NOT NULL, \"name_lower\" character varying(100) NOT NULL, \"description\" character varying(1000), \"private\" boolean NOT NULL DEFAULT false, \"fork\" boolean NOT NULL DEFAULT false, \"secret_scanning\" boolean NOT NULL DEFAULT false, \"push_protection\" boolean NOT NULL DEFAULT false, \"advanced_security\" boolean NOT NULL DEFAULT false, \"delegated_alert_dismissal\" boolean NOT NULL DEFAULT false, \"created_at\" TIMESTAMP NOT NULL DEFAULT now(), \"updated_at\" TIMESTAMP NOT NULL DEFAULT now(), CONSTRAINT \"PK_ef0c358c04b4f4d29b8ca68ddff\" PRIMARY KEY (\"id\"))");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_repositories_owner_name\" ON \"repositories\"  (\"owner_id\", \"name_lower\") ");
        await queryRunner.query("CREATE TABLE \"repository_collaborators\" (\"id\" SERIAL NOT NULL, \"repository_id\" integer NOT NULL, \"user_id\" integer NOT NULL, \"permission\" character varying(8) NOT NULL, \"created_at\" TIMESTAMP NOT NULL DEFAULT now(), CONSTRAINT \"PK_8298a013af638ed0e74c0634f4a\" PRIMARY KEY (\"id\"))");
        await queryRunner.query("CREATE INDEX \"IDX_repository_collaborators_user\" ON \"repository_collaborators\"  (\"user_id\") ");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_repository_collaborators_repo_user\" ON \"repository_collaborators\"  (\"repository_id\", \"user_id\") ");
        await queryRunner.query("CREATE TABLE \"server_settings\" (\"key\" character varying(64) NOT NULL, \"value\" text NOT NULL, CONSTRAINT \"PK_9baa85c95771a8a3d89f1382ec9\" PRIMARY KEY (\"key\"))");
        await queryRunner.query("CREATE TABLE \"workflow_access_keys\" (\"id\" SERIAL NOT NULL, \"access_key_id\" character varying(32) NOT NULL, \"user_id\" integer NOT NULL, \"secret_ciphertext\" character varying(255) NOT NULL, \"status\" character varying(16) NOT NULL DEFAULT 'Active', \"created_at\" TIMESTAMP NOT NULL DEFAULT now(), CONSTRAINT \"PK_ba684a6e37afb37a3e44fd1032f\" PRIMARY KEY (\"id\"))");
        await queryRunner.query("CREATE UNIQUE INDEX \"UQ_workflow_access_keys_key_id\" ON \"workflow_access_keys\"  (\"access_key_id\") ");
        await queryRunner.query("CREATE INDEX \"IDX_workflow_access_keys_user\" ON \"workflow_access_keys\"  (\"user_id\") ");
        await queryRunner.query("ALTER TABLE \"access_tokens\" ADD CONSTRAINT \"FK_09ee750a035b06e0c7f0704687e\" FOREIGN KEY (\"user_id\") REFERENCES \"accounts\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
        await queryRunner.query("ALTER TABLE \"memberships\" ADD CONSTRAINT \"FK_e5380c394ec7912046d07b54290\" FOREIGN KEY (\"organization_id\") REFERENCES \"accounts\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
        await queryRunner.query("ALTER TABLE \"memberships\" ADD CONSTRAINT \"FK_7c1e2fdfed4f6838e0c05ae5051\" FOREIGN KEY (\"user_id\") REFERENCES \"accounts\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
        await queryRunner.query("ALTER TABLE \"repositories\" ADD CONSTRAINT \"FK_9af57d895c4c3efb1d5e008ac07\" FOREIGN KEY (\"owner_id\") REFERENCES \"accounts\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
        await queryRunner.query("ALTER TABLE \"repository_collaborators\" ADD CONSTRAINT \"FK_94791f03606e3799dbc53745b51\" FOREIGN KEY (\"repository_id\") REFERENCES \"repositories\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
        await queryRunner.query("ALTER TABLE \"repository_collaborators\" ADD CONSTRAINT \"FK_cf6ae56dc2cb3ddb6124b5fcbc8\" FOREIGN KEY (\"user_id\") REFERENCES \"accounts\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
        await queryRunner.query("ALTER TABLE \"workflow_access_keys\" ADD CONSTRAINT \"FK_c6efb5b93e4dcc79778660d667b\" FOREIGN KEY (\"user_id\") REFERENCES \"accounts\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query("ALTER TABLE \"workflow_access_keys\" DROP CONSTRAINT \"FK_c6efb5b93e4dcc79778660d667b\"");
        await queryRunner.query("ALTER TABLE \"repository_collaborators\" DROP CONSTRAINT \"FK_cf6ae56dc2cb3ddb6124b5fcbc8\"");
        await queryRunner.query("ALTER TABLE \"repository_collaborators\" DROP CONSTRAINT \"FK_94791f03606e3799dbc53745b51\"");
        await queryRunner.query("ALTER TABLE \"repositories\" DROP CONSTRAINT \"FK_9af57d895c4c3efb1d5e008ac07\"");
        await queryRunner.query("ALTER TABLE \"memberships\" DROP CONSTRAINT \"FK_7c1e2fdfed4f6838e0c05ae5051\"");
        await queryRunner.query("ALTER TABLE \"memberships\" DROP CONSTRAINT \"FK_e5380c394ec7912046d07b54290\"");
        await queryRunner.query("ALTER TABLE \"access_tokens\" DROP CONSTRAINT \"FK_09ee750a035b06e0c7f0704687e\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_workflow_access_keys_user\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_workflow_access_keys_key_id\"");
        await queryRunner.query("DROP TABLE \"workflow_access_keys\"");
        await queryRunner.query("DROP TABLE \"server_settings\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_repository_collaborators_repo_user\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_repository_collaborators_user\"");
        await queryRunner.query("DROP TABLE \"repository_collaborators\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_repositories_owner_name\"");
        await queryRunner.query("DROP TABLE \"repositories\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_memberships_org_user\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_memberships_user\"");
        await queryRunner.query("DROP TABLE \"memberships\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_access_tokens_hash\"");
        await queryRunner.query("DROP INDEX \"public\".\"IDX_access_tokens_user\"");
        await queryRunner.query("DROP TABLE \"access_tokens\"");
        await queryRunner.query("DROP INDEX \"public\".\"UQ_accounts_login_lower\"");
        await queryRunner.query("DROP TABLE \"accounts\"");
    }
}
