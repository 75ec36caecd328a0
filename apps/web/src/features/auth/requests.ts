import { createAuthorizedRequests } from '../../lib/http/authorizedRequest.ts';
import { accountContext, authServices } from './services.ts';

/** Uploads and downloads as the signed-in account (a module apart: the login page never needs it). */
export const { authorizedRequest, fetchBlob, downloadFile } = createAuthorizedRequests(async (service) => {
  const { config, auth } = authServices();
  return {
    baseUrl: service === 'chats' ? config.chatsManagerUrl : config.accountManagerUrl,
    context: await accountContext(auth),
  };
});
