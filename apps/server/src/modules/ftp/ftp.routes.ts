import { emptyDataSchema } from '@panel247/contract/envelope';
import {
  ftpAccountParamsSchema,
  ftpCreateParamsSchema,
  ftpListDataSchema,
  ftpListParamsSchema,
  ftpLoginParamsSchema,
  ftpMainDataSchema,
  ftpOneDataSchema,
  ftpPasswordParamsSchema,
  ftpRedeemDataSchema,
  ftpSaveParamsSchema,
  ftpServiceParamsSchema,
} from '@panel247/contract/ftp';
import {
  sshKeyAddParamsSchema,
  sshKeyListDataSchema,
  sshKeyListParamsSchema,
  sshKeyOneDataSchema,
  sshKeyParamsSchema,
} from '@panel247/contract/sftp-keys';
import { signonFormSchema, signonRedeemParamsSchema } from '@panel247/contract/signon';
import type { ApiRouter } from '../../http/api-route.ts';
import { applyNowInfo } from '../../jobs/service-changes.ts';
import type { FtpService } from './ftp.service.ts';

export function registerFtpRoutes(api: ApiRouter, ftp: FtpService) {
  const both: ('GET' | 'POST')[] = ['GET', 'POST'];
  api.session(
    { method: both, url: 'service/:id/ftp/main/', params: ftpServiceParamsSchema, data: ftpMainDataSchema },
    async ({ actor, params }) => ({
      data: await ftp.main(actor, params.id),
    }),
  );
  api.session(
    { method: 'POST', url: 'service/:id/ftp/apply/', params: ftpServiceParamsSchema, data: ftpMainDataSchema },
    async ({ actor, params }) => {
      const { main, applied } = await ftp.applyNow(actor, params.id);
      return { data: main, info: [applyNowInfo(applied, main.applying, 'ftp.applied')] };
    },
  );
  api.session(
    { method: both, url: 'service/:id/ftp/list/', params: ftpListParamsSchema, data: ftpListDataSchema },
    async ({ actor, params }) => ({ data: await ftp.list(actor, params) }),
  );
  api.session(
    { method: 'POST', url: 'service/:id/ftp/create/', params: ftpCreateParamsSchema, data: ftpOneDataSchema },
    async ({ actor, params }) => ({
      data: { ftp: await ftp.create(actor, params.id, params) },
      info: ['ftp.created'],
    }),
  );
  // (beyond the spec) SFTP keys; static segments, so they never read as an account's id
  api.session(
    { method: both, url: 'service/:id/ftp/keys/', params: sshKeyListParamsSchema, data: sshKeyListDataSchema },
    async ({ actor, params }) => ({ data: await ftp.keys.list(actor, params.id) }),
  );
  api.session(
    { method: 'POST', url: 'service/:id/ftp/keys/add/', params: sshKeyAddParamsSchema, data: sshKeyOneDataSchema },
    async ({ actor, params }) => ({
      data: { key: await ftp.keys.add(actor, params.id, params) },
      info: ['ftp.key_added'],
    }),
  );
  api.session(
    { method: 'POST', url: 'service/:id/ftp/keys/:kid/delete/', params: sshKeyParamsSchema, data: emptyDataSchema },
    async ({ actor, params }) => {
      await ftp.keys.remove(actor, params.id, params.kid);
      return { data: {}, info: ['ftp.key_deleted'] };
    },
  );
  api.session(
    { method: both, url: 'service/:id/ftp/:fid/', params: ftpAccountParamsSchema, data: ftpOneDataSchema },
    async ({ actor, params }) => ({
      data: { ftp: await ftp.get(actor, params.id, params.fid) },
    }),
  );
  api.session(
    { method: 'POST', url: 'service/:id/ftp/:fid/save/', params: ftpSaveParamsSchema, data: ftpOneDataSchema },
    async ({ actor, params }) => ({
      data: { ftp: await ftp.saveFolder(actor, params.id, params.fid, params.folder) },
      info: ['ftp.saved'],
    }),
  );
  api.session(
    {
      method: 'POST',
      url: 'service/:id/ftp/:fid/changepassword/',
      params: ftpPasswordParamsSchema,
      data: ftpOneDataSchema,
    },
    async ({ actor, params }) => ({
      data: { ftp: await ftp.changePassword(actor, params.id, params.fid, params.password) },
      info: ['ftp.password_changed'],
    }),
  );
  api.session(
    { method: both, url: 'service/:id/ftp/:fid/delete/', params: ftpAccountParamsSchema, data: emptyDataSchema },
    async ({ actor, params }) => {
      await ftp.remove(actor, params.id, params.fid);
      return { data: {}, info: ['ftp.deleted'] };
    },
  );
  api.session(
    { method: 'POST', url: 'service/:id/ftp/:fid/login/', params: ftpLoginParamsSchema, data: signonFormSchema },
    async ({ actor, params }) => ({
      data: await ftp.webftpLogin(actor, params.id, params.fid, params.initialDirectory),
    }),
  );

  // Server to server: the WebFTP trades a sign-on token for the account it opens (once).
  api.public(
    { method: 'POST', url: 'webftp/redeem/', params: signonRedeemParamsSchema, data: ftpRedeemDataSchema },
    async ({ params }) => ({ data: await ftp.redeemToken(params.key, params.token) }),
  );
}
